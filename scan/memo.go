package scan

import (
	"crypto/sha256"
	"hash/maphash"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/robotskit/robots/fetch"
)

// An Analyzer is Analyze for a stream of captures: it reads each distinct
// robots.txt once. Many sites serve the same file (a CMS's default, one
// company's hosts, http and https of one site), and a crawl fetches the
// same site again and again; what a row says of the file — its counts,
// its User-agent values, its encoding and the verdict of each robot —
// depends only on the body and on how each fetch policy reads the
// response (Row.Outcomes), so the Analyzer works it out once per distinct
// pair and gives every later capture of it the same answer. The facts of
// each capture (URL, host, time, status, size, redirect) and the checker's
// codes, which depend on the response's headers, are worked out for each.
//
// A body is known by its SHA-256 (FIPS 180-4), so that two bodies are
// never taken for one. The rows of one body share their lists
// (Directives, Agents, ContentSignal, ContentUsage, License, Robots), and
// rows with the same verdicts share one Robots list: callers must not
// modify them. The memory an Analyzer keeps
// is bounded (about 16 MiB of facts at most). An Analyzer is safe
// for concurrent use; a nil *Analyzer analyses each capture alone, as
// Analyze does.
type Analyzer struct {
	o      *Options
	shards [memoShards]memoShard

	seed      maphash.Seed // of the verdict lists' hashes
	verdictMu sync.Mutex
	verdicts  map[uint64][]Verdict // distinct verdict lists, by hash
}

// NewAnalyzer returns an Analyzer of captures under o, which it keeps
// and never changes; the caller must not change it either. A nil o is the
// zero Options.
func NewAnalyzer(o *Options) *Analyzer {
	if o == nil {
		o = &Options{}
	}
	return &Analyzer{o: o, seed: maphash.MakeSeed()}
}

// Analyze returns the row of c, as Analyze(c, o) does.
func (z *Analyzer) Analyze(c *Capture) Row {
	if c == nil {
		return Row{}
	}
	if z == nil {
		return Analyze(c, nil)
	}
	a := analyzer{c: c, o: z.o, shortcut: true, analyzer: z}
	a.run()
	return a.row
}

// The bounds of an Analyzer's memory: each shard keeps two generations
// of at most memoEntries entries and memoBytes bytes of facts; when the
// newer one is full, the older is dropped. At most maxVerdictLists
// distinct verdict lists are shared.
const (
	memoShards      = 16
	memoEntries     = 8192 / memoShards
	memoBytes       = (8 << 20) / memoShards
	maxVerdictLists = 4096
)

type memoShard struct {
	mu       sync.Mutex
	cur, old map[memoKey]*memoFacts
	curBytes int
}

// memoKey is what a row's facts of the file depend on: the body, by its
// SHA-256, and the outcome under each fetch policy.
type memoKey struct {
	sum      [sha256.Size]byte
	ok       bool // a 2xx, whose body is read
	outcomes [slots]fetch.Outcome
}

// memoFacts are the fields of a row that depend on its key only.
type memoFacts struct {
	size       int // what it holds, roughly, in bytes
	directives []KeyCount
	groups     int
	rules      int
	sitemaps   int
	agents     []AgentValue
	signal     []string // Content-Signal, Content-Usage and License values
	usage      []string
	license    []string
	html       bool
	encoding   string
	bom        bool
	robots     []Verdict
}

// key returns the key of a's capture, once its outcomes are known.
func (z *Analyzer) key(a *analyzer) memoKey {
	k := memoKey{outcomes: a.outcomes, ok: a.status >= 200 && a.status < 300}
	if k.ok {
		k.sum = sha256.Sum256(a.body)
	}
	return k
}

// shard returns the shard of k.
func (z *Analyzer) shard(k *memoKey) *memoShard {
	return &z.shards[int(k.sum[0])%memoShards]
}

// get fills a's row from the facts of an earlier capture with the same
// key and body, and reports whether there were some.
func (z *Analyzer) get(k memoKey, a *analyzer) bool {
	sh := z.shard(&k)
	sh.mu.Lock()
	f, ok := sh.cur[k]
	if !ok {
		if f, ok = sh.old[k]; ok {
			sh.put(k, f)
		}
	}
	sh.mu.Unlock()
	if !ok {
		return false
	}
	row := &a.row
	row.Directives, row.Groups, row.Rules, row.Sitemaps, row.Agents = f.directives, f.groups, f.rules, f.sitemaps, f.agents
	row.ContentSignal, row.ContentUsage, row.License = f.signal, f.usage, f.license
	row.HTML, row.Encoding, row.BOM, row.Robots = f.html, f.encoding, f.bom, f.robots
	return true
}

// put keeps the facts of a's row under k.
func (z *Analyzer) put(k memoKey, a *analyzer) {
	row := &a.row
	row.Robots = z.shared(row.Robots)
	f := &memoFacts{directives: row.Directives, groups: row.Groups, rules: row.Rules, sitemaps: row.Sitemaps,
		agents: row.Agents, signal: row.ContentSignal, usage: row.ContentUsage, license: row.License,
		html: row.HTML, encoding: row.Encoding, bom: row.BOM, robots: row.Robots}
	f.size = int(unsafe.Sizeof(*f)+unsafe.Sizeof(k)) + 64 + // the maps' own
		len(f.directives)*int(unsafe.Sizeof(KeyCount{})) + len(f.agents)*int(unsafe.Sizeof(AgentValue{}))
	for i := range f.agents {
		f.size += len(f.agents[i].Value) + len(f.agents[i].Lower)
	}
	for _, list := range [...][]string{f.signal, f.usage, f.license} {
		for _, v := range list {
			f.size += int(unsafe.Sizeof(v)) + len(v)
		}
	}
	if f.size > memoBytes/4 {
		return // a file of thousands of User-agent lines is read each time
	}
	sh := z.shard(&k)
	sh.mu.Lock()
	sh.put(k, f)
	sh.mu.Unlock()
}

// put adds f to the newer generation, making a new one when it is full.
func (sh *memoShard) put(k memoKey, f *memoFacts) {
	if sh.cur == nil || len(sh.cur) >= memoEntries || sh.curBytes+f.size > memoBytes {
		sh.old, sh.cur, sh.curBytes = sh.cur, make(map[memoKey]*memoFacts, memoEntries), 0
	}
	if _, ok := sh.cur[k]; !ok {
		sh.cur[k] = f
		sh.curBytes += f.size
	}
}

// shared returns the list of verdicts equal to vs that the Analyzer
// keeps, keeping vs when there is none: most files give the robots one of
// a few lists of verdicts.
func (z *Analyzer) shared(vs []Verdict) []Verdict {
	if len(vs) == 0 {
		return vs
	}
	var h maphash.Hash
	h.SetSeed(z.seed)
	for i := range vs {
		v := &vs[i]
		h.WriteString(v.Robot)
		h.WriteByte(0)
		h.WriteString(v.State)
		h.WriteByte(0)
		h.WriteString(v.Via)
		h.WriteByte(0)
		h.WriteString(v.AITrain)
		h.WriteByte(0)
		var n [32]byte
		for j, x := range [4]uint64{uint64(v.Line), uint64(v.Group), math.Float64bits(v.CrawlDelay), uint64(len(vs))} {
			for b := range 8 {
				n[j*8+b] = byte(x >> (8 * b))
			}
		}
		h.Write(n[:])
	}
	sum := h.Sum64()
	z.verdictMu.Lock()
	defer z.verdictMu.Unlock()
	if old, ok := z.verdicts[sum]; ok && slices.Equal(old, vs) {
		return old
	}
	if z.verdicts == nil || len(z.verdicts) >= maxVerdictLists {
		z.verdicts = make(map[uint64][]Verdict)
	}
	z.verdicts[sum] = vs
	return vs
}
