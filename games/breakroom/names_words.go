package breakroom

// adjectives are the generated names' first words: 128 words (a power of two, so the hash's modulo
// picks each equally often), capitalised ASCII letters, pairwise distinct in any case. Never
// reorder or edit them: a key's name would change.
var adjectives = [...]string{
	"Amber", "Azure", "Bold", "Brave", "Breezy", "Bright", "Brisk", "Bronze", "Calm", "Candid",
	"Cheerful", "Clever", "Cobalt", "Copper", "Coral", "Cosmic", "Crimson", "Crisp", "Curious",
	"Daring", "Dapper", "Dawn", "Deft", "Dusky", "Eager", "Early", "Earnest", "Ebony", "Electric",
	"Emerald", "Fabled", "Fair", "Fearless", "Fern", "Fiery", "Fleet", "Floral", "Fluent", "Frosty",
	"Gallant", "Gentle", "Gilded", "Glad", "Gleaming", "Golden", "Graceful", "Grand", "Granite",
	"Hardy", "Hazel", "Hidden", "Honest", "Humble", "Icy", "Indigo", "Ivory", "Jade", "Jolly",
	"Jovial", "Keen", "Kind", "Lavender", "Lively", "Loyal", "Lucid", "Lucky", "Lunar", "Magnetic",
	"Maple", "Marble", "Mellow", "Merry", "Mighty", "Misty", "Modest", "Mossy", "Nimble", "Noble",
	"Olive", "Onyx", "Opal", "Patient", "Pearl", "Plucky", "Polar", "Proud", "Quick", "Quiet",
	"Radiant", "Rapid", "Ready", "Rosy", "Royal", "Ruby", "Russet", "Rustic", "Sage", "Sandy",
	"Scarlet", "Serene", "Silent", "Silver", "Smooth", "Snowy", "Solar", "Sparkling", "Spry",
	"Steady", "Stellar", "Stormy", "Sturdy", "Sunny", "Swift", "Tawny", "Teal", "Topaz", "Tranquil",
	"True", "Umber", "Velvet", "Vivid", "Wandering", "Warm", "Wild", "Wise", "Witty", "Woolly",
	"Zesty",
}

// animals are the generated names' second words: 128 words (a power of two, so the hash's modulo
// picks each equally often), capitalised ASCII letters, pairwise distinct in any case. Never
// reorder or edit them: a key's name would change.
var animals = [...]string{
	"Albatross", "Alpaca", "Antelope", "Armadillo", "Badger", "Bat", "Beaver", "Bison", "Bobcat",
	"Buffalo", "Camel", "Capybara", "Caribou", "Cheetah", "Chinchilla", "Condor", "Cougar",
	"Coyote", "Crane", "Cricket", "Crow", "Deer", "Dingo", "Dolphin", "Dove", "Dragonfly", "Duck",
	"Eagle", "Egret", "Elk", "Emu", "Falcon", "Ferret", "Finch", "Flamingo", "Fox", "Gazelle",
	"Gecko", "Gibbon", "Giraffe", "Goat", "Goose", "Gopher", "Gorilla", "Grouse", "Gull", "Hare",
	"Hawk", "Hedgehog", "Heron", "Hippo", "Hummingbird", "Ibex", "Ibis", "Iguana", "Impala",
	"Jackal", "Jaguar", "Jay", "Kangaroo", "Kestrel", "Kingfisher", "Kiwi", "Koala", "Lark",
	"Lemur", "Leopard", "Lion", "Lizard", "Llama", "Lynx", "Macaw", "Magpie", "Manatee", "Marmot",
	"Marten", "Meerkat", "Mink", "Mongoose", "Moose", "Moth", "Narwhal", "Newt", "Nightingale",
	"Ocelot", "Octopus", "Okapi", "Orca", "Oriole", "Osprey", "Ostrich", "Otter", "Owl", "Ox",
	"Panda", "Panther", "Parrot", "Pelican", "Penguin", "Pheasant", "Puffin", "Puma", "Quail",
	"Rabbit", "Raccoon", "Raven", "Reindeer", "Robin", "Salamander", "Seal", "Shark", "Sparrow",
	"Squirrel", "Starling", "Stork", "Swan", "Tapir", "Tiger", "Toucan", "Turtle", "Walrus",
	"Weasel", "Whale", "Wolf", "Wombat", "Wren", "Yak", "Zebra",
}
