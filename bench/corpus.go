package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// host is one robots.txt body of the corpus and the URLs checked against it.
type host struct {
	name string
	body []byte // the file, byte-exact
	text string // body as a string, prepared once for APIs that take strings
	urls []string
}

// query is one (host, absolute URL) pair of urls.tsv.
type query struct {
	host int // index into corpus.hosts
	url  string
}

// corpus is the benchmark input: robots.txt bodies and the URLs to check.
type corpus struct {
	hosts   []host
	queries []query // in urls.tsv order, hence grouped by host
	bytes   int64   // total size of all bodies
	// unknownURLs counts urls.tsv lines whose host has no robots.txt file;
	// they are ignored.
	unknownURLs int
}

// loadCorpus reads dir/robots/<host> and dir/urls.tsv.
func loadCorpus(dir string) (*corpus, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus folder: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("corpus folder %s: not a directory", dir)
	}
	robotsDir := filepath.Join(dir, "robots")
	entries, err := os.ReadDir(robotsDir)
	if err != nil {
		return nil, fmt.Errorf("corpus folder %s: %w", dir, err)
	}
	c := &corpus{}
	index := make(map[string]int, len(entries))
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		body, err := os.ReadFile(filepath.Join(robotsDir, e.Name()))
		if err != nil {
			return nil, err
		}
		index[e.Name()] = len(c.hosts)
		c.hosts = append(c.hosts, host{name: e.Name(), body: body, text: string(body)})
		c.bytes += int64(len(body))
	}
	if len(c.hosts) == 0 {
		return nil, fmt.Errorf("corpus folder %s: no files in robots/", dir)
	}
	if err := c.readURLs(filepath.Join(dir, "urls.tsv"), index); err != nil {
		return nil, err
	}
	return c, nil
}

// readURLs reads the host<TAB>URL lines of name into c.queries and the
// per-host URL lists.
func (c *corpus) readURLs(name string, index map[string]int) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" {
			continue
		}
		h, u, ok := strings.Cut(text, "\t")
		if !ok || h == "" || u == "" {
			return fmt.Errorf("%s:%d: want host<TAB>URL", name, line)
		}
		i, ok := index[h]
		if !ok {
			c.unknownURLs++
			continue
		}
		c.queries = append(c.queries, query{host: i, url: u})
		c.hosts[i].urls = append(c.hosts[i].urls, u)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(c.queries) == 0 {
		return errors.New(name + ": no URLs for any host of robots/")
	}
	return nil
}

// every returns a corpus with every nth host of c (starting with the first)
// and only their URLs. It shares the bodies with c.
func (c *corpus) every(n int) *corpus {
	if n <= 1 {
		return c
	}
	s := &corpus{}
	remap := make(map[int]int)
	for i := 0; i < len(c.hosts); i += n {
		remap[i] = len(s.hosts)
		s.hosts = append(s.hosts, c.hosts[i])
		s.bytes += int64(len(c.hosts[i].body))
	}
	for _, q := range c.queries {
		if j, ok := remap[q.host]; ok {
			s.queries = append(s.queries, query{host: j, url: q.url})
		}
	}
	return s
}

// firstURL returns the first URL listed for h, or its root URL when it has
// none.
func (h *host) firstURL() string {
	if len(h.urls) > 0 {
		return h.urls[0]
	}
	return "https://" + h.name + "/"
}

// requestPath returns the path and query of an absolute URL ("/" when it has
// no path), without the fragment: what temoto's TestAgent expects. It does not
// allocate unless the URL's path is empty but it has a query.
func requestPath(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	j := strings.IndexAny(u, "/?#")
	if j < 0 {
		return "/"
	}
	u = u[j:]
	if k := strings.IndexByte(u, '#'); k >= 0 {
		u = u[:k]
	}
	switch {
	case u == "":
		return "/"
	case u[0] != '/':
		return "/" + u
	}
	return u
}
