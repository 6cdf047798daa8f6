// Package diskcache is a fetch.Cache in a bbolt file (go.etcd.io/bbolt),
// so that what a robot learned of each origin's robots.txt survives a
// restart. It is a package of its own so that a program that imports
// fetch does not link bbolt.
//
//	d, err := diskcache.Open("/var/cache/robots.db")
//	if err != nil { … }
//	defer d.Close()
//	f := &fetch.Fetcher{Cache: fetch.Layered(fetch.NewMemoryCache(0), d)}
//
// The MemoryCache in front keeps the rules compiled between calls; the
// package fetch/cachespec opens the same from "disk:PATH?max=SIZE".
//
// The cache loses only cache. Its file is checked before bbolt maps it;
// one that is truncated, corrupt or not a Cache's is moved aside to
// PATH.corrupt-TIME and replaced by an empty one; a panic or memory fault
// of bbolt on a corrupt page later is recovered the same way (Stats
// counts both; Options.Logger is told). A file that another process has
// open fails in a second with "in use by another process" (an
// *InUseError naming the file). The file stays under its bound, 256 MiB
// by default: expired entries go first, then the oldest, and the file is
// compacted when it must shrink. Put queues the entry and returns; one
// goroutine writes the queue in batches, so a crawler that stores files
// one by one does not wait for a sync each. Close (or Flush) writes
// everything queued; a crash loses only the last moments' Puts.
//
// An entry is kept fetch.DefaultRetain (60 days) after its fetch, so that
// the last good copy outlives the 30-day outage window: after 30 days
// unreachable, Google uses the last cached copy, or crawls freely when it
// has none ("How Google interprets the robots.txt specification",
// https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt),
// and RFC 9309 §2.3.1.4 (https://www.rfc-editor.org/rfc/rfc9309) allows a
// cached copy after "a reasonably long period of time (for example, 30
// days)". The checks of
// the file before bbolt maps it follow the layout in bbolt's source
// (https://github.com/etcd-io/bbolt, internal/common: page.go, meta.go,
// types.go).
package diskcache
