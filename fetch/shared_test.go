package fetch

import (
	"context"
	"fmt"
	"hash/maphash"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/robotskit/robots"
)

// sharedTestBody is a robots.txt of several groups, and the URLs whose
// verdicts TestSharedBodyRules compares.
const sharedTestBody = `User-agent: *
Disallow: /search
Disallow: /*?sessionid=
Allow: /search/about$
Disallow: /private/
Allow: /private/index.html

User-agent: Googlebot
User-agent: Bingbot
Disallow: /nogoogle/
Disallow: /*.pdf$

User-agent: GPTBot
Disallow: /
`

var sharedTestPaths = []string{
	"/", "/search", "/search/about", "/search/about?x", "/a?sessionid=1",
	"/private/", "/private/index.html", "/nogoogle/x", "/doc.pdf", "/doc.pdf?x",
}

var sharedTestAgents = []string{"Googlebot", "bingbot", "GPTBot", "ExampleBot"}

// sharedTestEntry returns a fresh success entry for host with its own
// copy of body.
func sharedTestEntry(host, body string, now time.Time) *Entry {
	return &Entry{URL: "https://" + host + "/robots.txt", Outcome: Success, Status: 200,
		Fetched: now, Expires: now.Add(24 * time.Hour), Good: Success, GoodAt: now,
		Body: []byte(body)}
}

// TestSharedBodyRules: two origins of the same body, each put with its own
// copy, share one copy of it and one compiled rules object per profile,
// and an origin of another body does not; every verdict is the one of the
// rules compiled from the body alone.
func TestSharedBodyRules(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	c := NewMemoryCache(0)
	other := strings.Replace(sharedTestBody, "Disallow: /private/", "Disallow: /private", 1)
	bodyOf := map[string]string{"a.example": sharedTestBody, "b.example": sharedTestBody, "c.example": other}
	for _, p := range []robots.Profile{robots.Google, robots.Bing, robots.RFC9309} {
		f := &Fetcher{Cache: c, Policy: PolicyFor(p), Profile: p, Now: func() time.Time { return now }}
		res := map[string]*Result{}
		for _, host := range []string{"a.example", "b.example", "c.example"} {
			o := Origin{Scheme: "https", Host: host}
			if err := c.Put(ctx, f.key(o), sharedTestEntry(host, bodyOf[host], now)); err != nil {
				t.Fatal(err)
			}
			r, err := f.Get(ctx, "https://"+host+"/")
			if err != nil || r.Access != AccessRules {
				t.Fatalf("[%v] Get %s = %+v, %v", p, host, r, err)
			}
			res[host] = r
		}
		a, b, other := res["a.example"], res["b.example"], res["c.example"]
		if a.Rules() != b.Rules() {
			t.Errorf("[%v] two origins of the same body have two compiled rules", p)
		}
		if a.Rules() == other.Rules() {
			t.Errorf("[%v] origins of different bodies share rules", p)
		}
		if a.Rules().Profile() != p {
			t.Errorf("[%v] shared rules of profile %v", p, a.Rules().Profile())
		}
		if &a.Body[0] != &b.Body[0] || string(a.Body) != sharedTestBody {
			t.Errorf("[%v] two origins of the same body hold two copies of it", p)
		}
		for host, r := range res {
			alone := robots.Parse([]byte(bodyOf[host]), p)
			for _, agent := range sharedTestAgents {
				for _, path := range sharedTestPaths {
					u := "https://" + host + path
					d := alone.Decide(robots.Agent{Tokens: []string{agent}}, u)
					want := Verdict{Allowed: d.Allowed, Access: AccessRules, Decision: d}
					got := r.Decide(robots.Agent{Tokens: []string{agent}}, u)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("[%v] %s for %s: %+v, want %+v as the body alone reads it", p, u, agent, got, want)
					}
					if got, want := r.Allowed(agent, u), alone.Allowed(agent, u); got != want {
						t.Errorf("[%v] Allowed(%s, %s) = %v, want %v", p, agent, u, got, want)
					}
				}
			}
		}
	}
}

var collisionRuns atomic.Int64

// TestSharedBodyCollision: bodies whose hashes are equal are still told
// apart by their bytes.
func TestSharedBodyCollision(t *testing.T) {
	// A body of its own for each run, which no other test uses.
	path := fmt.Sprintf("/collision-%d", collisionRuns.Add(1))
	body := []byte("User-agent: *\nDisallow: " + path + "\n")
	sum := maphash.Bytes(bodies.seed, body)
	// A body of other bytes, as if its hash were the same.
	impostor := &sharedBody{body: []byte("User-agent: *\nAllow: /\n")}
	w := weak.Make(impostor)
	bodies.mu.Lock()
	if _, ok := bodies.m[sum]; ok {
		bodies.mu.Unlock()
		t.Fatal("setup: the body is already in use")
	}
	bodies.m[sum] = w
	bodies.mu.Unlock()
	defer forgetBody(bodyKey{sum, w})

	s := shareBody(body, false)
	if s == impostor || string(s.body) != string(body) {
		t.Fatalf("shareBody returned the body %q for %q", s.body, body)
	}
	if shareBody([]byte(string(body)), false) != s {
		t.Error("the same bytes again are not shared")
	}
	bodies.mu.Lock()
	if bodies.m[sum] != w || len(bodies.more[sum]) != 1 {
		t.Error("the bodies of one hash are not both kept")
	}
	bodies.mu.Unlock()
	if s.compiled(robots.Google).Allowed("x", path) {
		t.Error("the rules are not those of the body")
	}
	runtime.KeepAlive(impostor)
	runtime.KeepAlive(s)
	// Forgetting one leaves the other.
	forgetBody(bodyKey{sum, w})
	if shareBody([]byte(string(body)), false) != s {
		t.Error("the second body of the hash was forgotten with the first")
	}
	runtime.KeepAlive(s)
}

// bodyHeld reports whether bodies lists a shared body under the hash of
// body, alive or not yet cleaned up.
func bodyHeld(body []byte) bool {
	bodies.mu.Lock()
	defer bodies.mu.Unlock()
	sum := maphash.Bytes(bodies.seed, body)
	_, ok := bodies.m[sum]
	return ok || len(bodies.more[sum]) > 0
}

// TestSharedBodyReleased: a shared body, and its rules, go when no entry
// and no result uses it any more, and the table of bodies forgets it.
func TestSharedBodyReleased(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	body := sharedTestBody + "# " + t.Name() + "\n"
	c := NewMemoryCache(0)
	f := &Fetcher{Cache: c}
	for _, host := range []string{"a.example", "b.example"} {
		if err := c.Put(ctx, f.key(Origin{Scheme: "https", Host: host}), sharedTestEntry(host, body, now)); err != nil {
			t.Fatal(err)
		}
		if r, err := f.Get(ctx, "https://"+host+"/"); err != nil || r.Rules() == nil {
			t.Fatalf("Get %s = %v, %v", host, r, err)
		}
	}
	runtime.GC()
	if !bodyHeld([]byte(body)) {
		t.Fatal("the body in use is not in the table")
	}
	runtime.KeepAlive(c)
	c, f = nil, nil
	// The cleanups run on a goroutine of their own after a collection:
	// wait for it, 10 s at most, for a loaded machine may keep it from a
	// CPU for a while.
	for end := time.Now().Add(10 * time.Second); bodyHeld([]byte(body)) && time.Now().Before(end); {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if bodyHeld([]byte(body)) {
		t.Error("the body is still in the table when no entry uses it")
	}
}

// TestSharedBodyConcurrent: goroutines that put, get and ask about
// origins of a few bodies at once agree with the rules of each body
// alone, and end with one rules object per body. Run with -race.
func TestSharedBodyConcurrent(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	const nBodies, nOrigins, nWorkers = 3, 40, 8
	var texts [nBodies]string
	var alone [nBodies]*robots.Rules
	for i := range texts {
		texts[i] = sharedTestBody + fmt.Sprintf("Disallow: /body-%d/\n# %s\n", i, t.Name())
		alone[i] = robots.Parse([]byte(texts[i]), robots.Google)
	}
	c := NewMemoryCache(0)
	f := &Fetcher{Cache: c}
	host := func(i int) string { return fmt.Sprintf("h%d.example", i) }
	var rules [nOrigins]*robots.Rules
	var wg sync.WaitGroup
	for w := range nWorkers {
		wg.Go(func() {
			for k := range nOrigins {
				i := (k + w*7) % nOrigins
				_ = c.Put(ctx, f.key(Origin{Scheme: "https", Host: host(i)}), sharedTestEntry(host(i), texts[i%nBodies], now))
				r, err := f.Get(ctx, "https://"+host(i)+"/")
				if err != nil || !r.FromCache {
					t.Errorf("Get %s = %+v, %v; want a hit", host(i), r, err)
					return
				}
				for _, p := range sharedTestPaths {
					u := "https://" + host(i) + p + fmt.Sprintf("body-%d/", i%nBodies)
					if got, want := r.Allowed("ExampleBot", u), alone[i%nBodies].Allowed("ExampleBot", u); got != want {
						t.Errorf("%s: %v, want %v", u, got, want)
					}
				}
			}
		})
	}
	wg.Wait()
	for i := range nOrigins {
		o := Origin{Scheme: "https", Host: host(i)}
		if err := c.Put(ctx, f.key(o), sharedTestEntry(host(i), texts[i%nBodies], now)); err != nil {
			t.Fatal(err)
		}
		r, err := f.Get(ctx, "https://"+host(i)+"/")
		if err != nil || r.Rules() == nil {
			t.Fatalf("Get %s = %v, %v", host(i), r, err)
		}
		rules[i] = r.Rules()
	}
	for i := nBodies; i < nOrigins; i++ {
		if rules[i] != rules[i%nBodies] {
			t.Errorf("origin %d has rules of its own", i)
		}
	}
}
