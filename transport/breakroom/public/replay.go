package public

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	brgames "arena/games/breakroom"
	"arena/transport/door"
)

// The match page, GET /r/{match_id} ("Public reads"): while the match runs, its animated live
// page (it follows GET /r/{match_id}/live?narrate=1); once it is over, its replay, which reads
// GET /r/{match_id}.jsonl and plays it back at a chosen speed with the winner hidden until the
// end. Server-rendered, no build step: the page carries a small vanilla script (replay.js, the
// frame: feed, playback, points bars, standings chart, winner) and the game's own picture of
// its table (pictures/{game}.js, registering window.BRPictures[game]); a game without one is
// drawn as seats around a table.
//
// The page holds only what the public log holds at the time: while the match runs, the public
// lines so far and their narration, never a sealed line, ranking or seed; after the end, the
// narration of the public log's lines (the revealed ones included), which the script shows
// only as playback reaches them.

//go:embed replay.js
var replayJS string

//go:embed pictures/dilemma.js
var dilemmaJS string

// pictures are the games' pictures of their tables (game id → script).
var pictures = map[string]string{"dilemma": dilemmaJS}

// pageLine is one log line and its narration, as GET /r/{match_id}/live?narrate=1 sends it
// ({"e": <line>, "n": [...]}).
type pageLine struct {
	E json.RawMessage `json:"e"`
	N []string        `json:"n"`
}

// pageData is what the page's script starts from.
type pageData struct {
	MatchID  string       `json:"match_id"`
	Game     string       `json:"game"`
	GameName string       `json:"game_name"`
	Live     bool         `json:"live"`   // running: follow LiveURL; else replay LogURL
	Status   string       `json:"status"` // running, finished, abandoned
	Players  []pagePlayer `json:"players"`
	// Lines is the public log so far with its narration (a running match only).
	Lines []pageLine `json:"lines,omitempty"`
	// Words is the narration of each line of LogURL, by index (an ended match only).
	Words   [][]string `json:"words,omitempty"`
	LogURL  string     `json:"log_url"`
	LiveURL string     `json:"live_url"`
}

type pagePlayer struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	House bool   `json:"house,omitempty"`
	Staff bool   `json:"staff,omitempty"`
}

// ReplayPage is GET /r/{match_id} (the route transport/breakroom/play owns for
// /r/{match_id}.jsonl hands every other /r/{file} here): the live page of a running match, the
// replay of an ended one; unknown_match (404). The query's speed (0 paused, 1, 4 or 16 lines
// per tick; default 1) is the replay's first speed.
func (d *Door) ReplayPage(c echo.Context) error {
	m, lines, err := d.matchLog(c, c.Param("file"))
	if err != nil {
		return err
	}
	data := pageData{MatchID: m.ID, Game: m.Game, GameName: d.gameName(m.Game), Live: m.Status == StatusRunning, Status: m.Status,
		LogURL: "/r/" + m.ID + ".jsonl", LiveURL: "/r/" + m.ID + "/live?narrate=1"}
	for _, p := range m.Players {
		name := p.Name
		if name == "" {
			name = "seat " + itoa(p.Seat)
		}
		data.Players = append(data.Players, pagePlayer{Seat: p.Seat, Name: name, House: p.House, Staff: p.Staff})
	}
	evs, err := events(lines)
	if err != nil {
		return err
	}
	nar := brgames.NewNarration(d.o.Backend.Narrator(m.Game))
	for i, ev := range evs {
		words := nar.Words(ev)
		if data.Live {
			data.Lines = append(data.Lines, pageLine{E: json.RawMessage(lines[i]), N: words})
		} else {
			data.Words = append(data.Words, words)
		}
	}
	speed := c.QueryParam("speed")
	switch speed {
	case "", "0", "1", "4", "16":
	default:
		return door.Refuse("bad_request", "speed: one of 0, 1, 4, 16 (lines per step of the replay; 0 starts paused)")
	}
	if speed == "" {
		speed = "1"
	}
	var b bytes.Buffer
	err = matchPage.Execute(&b, map[string]any{"Data": data, "Speed": speed, "Script": template.JS(replayJS),
		"Picture": template.JS(pictures[m.Game]), "Title": data.GameName + " · " + m.ID})
	if err != nil {
		return err
	}
	noStore(c)
	return c.HTMLBlob(http.StatusOK, b.Bytes())
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

// matchPage is the live and replay page: the table picture, the points bars and standings chart
// beside the narrated feed, the playback buttons and the winner (hidden until the end).
var matchPage = template.Must(template.New("match").Parse(strings.TrimSpace(`
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Break Room</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f4f1ea}
header{display:flex;gap:1rem;align-items:baseline;padding:.7rem 1.2rem;background:#1d2330;color:#f4f1ea}
header a{color:#ffd27a}header h1{font-size:1.15rem;margin:0}
#status{margin-left:auto;font-weight:600}
#status.live::before{content:"● ";color:#ff5a4e}
main{display:grid;grid-template-columns:minmax(0,1.35fr) minmax(18rem,1fr);gap:1rem;padding:1rem 1.2rem;max-width:84rem;margin:auto}
section{background:#fff;border-radius:10px;box-shadow:0 1px 3px #0002;padding:.8rem 1rem}
h2{font-size:.95rem;margin:.1rem 0 .5rem;text-transform:uppercase;letter-spacing:.06em;color:#6a6256}
#table svg{width:100%;height:auto;display:block}
#controls{display:flex;gap:.4rem;align-items:center;flex-wrap:wrap;margin-top:.5rem}
#controls button{font:inherit;padding:.25rem .7rem;border:1px solid #c9c0b1;border-radius:6px;background:#fbf8f2;cursor:pointer}
#controls button.on{background:#1d2330;color:#fff;border-color:#1d2330}
#progress{margin-left:auto;color:#6a6256;font-variant-numeric:tabular-nums}
#feed{list-style:none;margin:0;padding:0;max-height:36rem;overflow:auto;font-size:.93rem}
#feed li{padding:.35rem .2rem;border-bottom:1px solid #eee6d8}
#feed li.talk{background:#fff8e6}
#feed li.sealed{color:#6a6256}
#feed li.end{font-weight:600;background:#eaf6ea}
#feed li.new{animation:flash 1.2s}
@keyframes flash{from{background:#ffe8a8}}
.bar-row{display:grid;grid-template-columns:8rem 1fr 3.5rem;gap:.5rem;align-items:center;margin:.25rem 0}
.bar-track{background:#efe9de;border-radius:4px;height:1rem;overflow:hidden}
.bar{height:100%;border-radius:4px;transition:width .4s}
.bar.sealed{background:repeating-linear-gradient(45deg,#d8d0c2 0 6px,#ebe5da 6px 12px)!important}
.bar-val{text-align:right;font-variant-numeric:tabular-nums}
#note{color:#6a6256;font-size:.85rem;margin:.3rem 0 0}
#winner{margin:0 0 .8rem;padding:.7rem 1rem;border-radius:10px;background:#1f7a3a;color:#fff;font-size:1.1rem}
#winner[hidden]{display:none}
#chart svg{width:100%;height:auto;display:block}
</style></head>
<body>
<header><h1><a href="/">Break Room</a> · {{.Data.GameName}}</h1><span>match <code>{{.Data.MatchID}}</code></span>
<span><a href="/r/{{.Data.MatchID}}/transcript">transcript</a> · <a href="/r/{{.Data.MatchID}}.jsonl">log</a></span>
<span id="status" class="{{if .Data.Live}}live{{end}}">{{if .Data.Live}}Live{{else}}Replay{{end}}</span></header>
<main>
<div>
<p id="winner" hidden></p>
<section id="table"><h2>The table</h2><div id="picture"></div>
<div id="controls">{{if not .Data.Live}}<button data-speed="0">Pause</button><button data-speed="1">1×</button><button data-speed="4">4×</button><button data-speed="16">16×</button>{{end}}
<span id="progress"></span></div></section>
<section id="points" style="margin-top:1rem"><h2>Points</h2><div id="bars">{{range .Data.Players}}<div class="bar-row"><span class="bar-name">{{.Name}}</span><div class="bar-track"><div class="bar sealed" style="width:0"></div></div><span class="bar-val">–</span></div>{{end}}</div><p id="note"></p></section>
<section id="chart" style="margin-top:1rem"><h2>Standing over the match</h2><div id="chart-svg"></div></section>
</div>
<section id="narration"><h2>What happened</h2><ol id="feed"></ol>
<noscript><p>The page plays the match with a small script; the <a href="/r/{{.Data.MatchID}}/transcript">transcript</a> is the same in plain text.</p></noscript></section>
</main>
<script id="br-data" type="application/json">{{.Data}}</script>
<script>window.BRSpeed = {{.Speed}};</script>
<script>{{.Picture}}</script>
<script>{{.Script}}</script>
</body></html>
`)))
