package market

// The words of the derived Player Names (DerivedName): 64 adjectives and 64 nouns of a harbour
// market, 4,096 names; collisions are told apart by a digest fragment.
var nameAdjectives = [...]string{
	"Amber", "Ashen", "Brass", "Brisk", "Bronze", "Calm", "Cedar", "Chalk",
	"Clever", "Copper", "Coral", "Crimson", "Dapper", "Dusky", "Eager", "Elder",
	"Fabled", "Fleet", "Foggy", "Gentle", "Gilded", "Granite", "Hardy", "Hazel",
	"Honest", "Idle", "Indigo", "Iron", "Jade", "Jolly", "Keen", "Lively",
	"Lucky", "Marble", "Mellow", "Misty", "Nimble", "Noble", "Oaken", "Olive",
	"Pewter", "Plucky", "Quiet", "Rapid", "Russet", "Rustic", "Saffron", "Salty",
	"Silver", "Sly", "Steady", "Stout", "Sunny", "Swift", "Tawny", "Thrifty",
	"Umber", "Velvet", "Violet", "Wary", "Willow", "Windy", "Wise", "Zesty",
}

var nameNouns = [...]string{
	"Anchor", "Badger", "Barge", "Beacon", "Bollard", "Buoy", "Cargo", "Compass",
	"Cooper", "Crane", "Curlew", "Dinghy", "Dock", "Drover", "Eel", "Ferry",
	"Fisher", "Gannet", "Gull", "Harbour", "Heron", "Hull", "Jetty", "Keel",
	"Kestrel", "Lantern", "Ledger", "Lighter", "Mallard", "Mariner", "Mast", "Merchant",
	"Otter", "Oyster", "Pedlar", "Pelican", "Pier", "Pilot", "Plover", "Porter",
	"Quay", "Raven", "Rigger", "Rope", "Sail", "Schooner", "Seal", "Skiff",
	"Sloop", "Spar", "Stevedore", "Tern", "Tide", "Tiller", "Trader", "Trawler",
	"Vintner", "Walrus", "Warden", "Wharf", "Whelk", "Wren", "Yard", "Yawl",
}
