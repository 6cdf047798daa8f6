package history_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/robotskit/robots/history"
)

func Example() {
	dir, err := os.MkdirTemp("", "history")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := history.Open(filepath.Join(dir, "history.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, body := range []string{
		"User-agent: *\nDisallow: /private/\n",
		"User-agent: *\nDisallow: /private/\n", // unchanged: no new version
		"User-agent: *\nDisallow: /\n",
	} {
		v, added, err := s.Record(history.Version{
			Site:    "https://example.com",
			Time:    t0.Add(time.Duration(i) * 24 * time.Hour),
			URL:     "https://example.com/robots.txt",
			Status:  200,
			Outcome: "success",
			Body:    []byte(body),
			Size:    int64(len(body)),
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("fetch %d: version %d, new %v\n", i+1, v.Seq, added)
	}

	v, ok, err := s.At("https://example.com", t0.Add(36*time.Hour))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("in force 36 hours in: version %d (%v), since %s\n%s", v.Seq, ok, v.Time.Format(time.DateOnly), v.Body)
	_, ok, _ = s.At("https://example.com", t0.Add(-time.Hour))
	fmt.Println("before the first fetch:", ok)
	// Output:
	// fetch 1: version 1, new true
	// fetch 2: version 1, new false
	// fetch 3: version 2, new true
	// in force 36 hours in: version 1 (true), since 2026-03-01
	// User-agent: *
	// Disallow: /private/
	// before the first fetch: false
}
