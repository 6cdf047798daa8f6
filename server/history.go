package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/history"
	"github.com/robotskit/robots/internal/target"
	"github.com/robotskit/robots/internal/timeline"
)

// The history pages (GET /history) and API (GET /api/v1/history) show
// the store that `robots watch -store PATH` keeps (Config.Store): its
// sites, a site's versions on a timeline, a version's body, and how
// robots read any two versions differently. The store is opened for
// reading on each request and held only while it is read, so that a
// watch daemon may write it meanwhile. The readings and the diffs are
// those of package internal/timeline, which robots watch and robots
// history ask too: the page says what the commands say.

// Limits of the history pages and API.
const (
	// maxHistorySite bounds the site parameter, as the store bounds a
	// site's name.
	maxHistorySite = 2048
	// maxHistoryDrawn is how many of a site's versions, the latest, the
	// page draws and lists.
	maxHistoryDrawn = 1000
	// historyLockWait is how long a request waits for the lock of a
	// robots watch that writes the store.
	historyLockWait = 5 * time.Second
)

// errNoStore answers a history request to a server without a store.
var errNoStore = &apiError{status: http.StatusNotFound, code: "no_store",
	msg: "this server keeps no history of robots.txt versions: start it with robots serve -store PATH, where PATH is the file robots watch -store PATH SITE writes"}

// noSiteYet says that the store has no site: robots watch has not
// written it yet.
const noSiteYet = "no site has been watched yet"

// A historyQuery is what a history request asks: the sites (no site),
// a site's versions, one version (V), or the change from version A to
// version B. Version numbers count from 1; 0 is not given.
type historyQuery struct {
	site    string
	v, a, b int
}

// parseHistoryQuery reads the query of a history request: site, then
// v, or a and b together. Its error is a 400.
func parseHistoryQuery(q url.Values) (historyQuery, error) {
	var hq historyQuery
	hq.site = strings.TrimSpace(q.Get("site"))
	if q.Has("site") && hq.site == "" {
		return hq, badRequest("bad_request", "give the site as ?site=ORIGIN, such as https://example.com")
	}
	if len(hq.site) > maxHistorySite {
		return hq, badRequest("bad_request", fmt.Sprintf("the site is %d bytes long; a site's name is at most %d", len(hq.site), maxHistorySite))
	}
	num := func(name string) (int, error) {
		if !q.Has(name) {
			return 0, nil
		}
		raw := strings.TrimSpace(q.Get(name))
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 {
			return 0, badRequest("bad_request", fmt.Sprintf("%s=%.40q: give a version number, 1 or more", name, raw))
		}
		return n, nil
	}
	var err error
	if hq.v, err = num("v"); err != nil {
		return hq, err
	}
	if hq.a, err = num("a"); err != nil {
		return hq, err
	}
	if hq.b, err = num("b"); err != nil {
		return hq, err
	}
	switch {
	case (hq.a == 0) != (hq.b == 0):
		return hq, badRequest("bad_request", "give both versions to compare: ?a=N&b=M")
	case hq.v != 0 && hq.a != 0:
		return hq, badRequest("bad_request", "give either v (one version) or a and b (two versions to compare), not both")
	case hq.site == "" && (hq.v != 0 || hq.a != 0):
		return hq, badRequest("bad_request", "give the site of the versions: ?site=ORIGIN")
	}
	return hq, nil
}

// A historySite is one site's versions as a request read them.
type historySite struct {
	Site string
	// Checked is when robots watch last fetched the site (history.Site),
	// never before the latest version.
	Checked  time.Time
	Versions []history.Version
	tl       *timeline.Timeline
}

// openHistory opens the server's store for reading. It returns a nil
// store and no error when the file does not exist yet.
func (s *Server) openHistory() (*history.Store, error) {
	if s.cfg.Store == "" {
		return nil, errNoStore
	}
	if _, err := os.Stat(s.cfg.Store); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	st, err := history.Open(s.cfg.Store, &history.Options{ReadOnly: true, LockTimeout: historyLockWait})
	if err != nil {
		return nil, s.storeError(err)
	}
	return st, nil
}

// storeError is the answer to a store that could not be read: 503 while
// a robots watch holds its lock, else a 500 that names no file (the log
// has the error).
func (s *Server) storeError(err error) error {
	if errors.Is(err, bolt.ErrTimeout) {
		return &apiError{status: http.StatusServiceUnavailable, code: "store_busy", retry: 2,
			msg: "the history store is being written (by robots watch); try again in a few seconds"}
	}
	s.log.Error("history store", "error", err.Error())
	return &apiError{status: http.StatusInternalServerError, code: "store_error",
		msg: "the history store could not be read; the server's log says why"}
}

// historySites lists the sites of the store; none when its file does
// not exist yet.
func (s *Server) historySites() ([]history.Site, error) {
	st, err := s.openHistory()
	if err != nil || st == nil {
		return nil, err
	}
	defer st.Close()
	sites, err := st.Sites()
	if err != nil {
		return nil, s.storeError(err)
	}
	return sites, nil
}

// loadSite reads the versions of the site a request names. A site not
// in the store is also looked for as the CLI reads a site argument: the
// origin of a URL, and for a bare host its https origin, then its http
// one. Its error is a 404 not_found for a site the store does not have.
func (s *Server) loadSite(site string) (*historySite, error) {
	st, err := s.openHistory()
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, &apiError{status: http.StatusNotFound, code: "not_found",
			msg: noSiteYet + ": the history store is empty; robots watch -store PATH SITE records a site's versions"}
	}
	defer st.Close()
	var vs []history.Version
	found := ""
	for _, name := range siteNames(site) {
		vs, err = st.Versions(name)
		if errors.Is(err, history.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, s.storeError(err)
		}
		found = name
		break
	}
	if found == "" || len(vs) == 0 {
		return nil, &apiError{status: http.StatusNotFound, code: "not_found",
			msg: fmt.Sprintf("%s has no version in this server's history (GET /history lists the sites it holds)", site)}
	}
	// Read after the versions, Checked is never before the latest one.
	hs := &historySite{Site: found, Versions: vs, Checked: vs[len(vs)-1].Time, tl: timeline.New(vs)}
	sites, err := st.Sites()
	if err != nil {
		return nil, s.storeError(err)
	}
	for _, x := range sites {
		if x.Site == found && x.Checked.After(hs.Checked) {
			hs.Checked = x.Checked
		}
	}
	return hs, nil
}

// siteNames are the names a site parameter may have in the store: as
// given, then the origin robots watch keys it by (a bare host's https
// origin, then its http one).
func siteNames(site string) []string {
	names := []string{site}
	u, bare, err := target.Read(site)
	if err != nil {
		return names
	}
	o, err := fetch.ParseOrigin(u)
	if err != nil {
		return names
	}
	if origin := o.String(); origin != site {
		names = append(names, origin)
	}
	if bare {
		names = append(names, "http://"+strings.TrimPrefix(o.String(), "https://"))
	}
	return names
}

// version returns the index of version n of the site, or a 404.
func (hs *historySite) version(n int) (int, error) {
	if n < 1 || n > len(hs.Versions) {
		return 0, &apiError{status: http.StatusNotFound, code: "not_found",
			msg: fmt.Sprintf("%s has no version %d: it has %s", hs.Site, n, plural(len(hs.Versions), "version"))}
	}
	return n - 1, nil
}

// googlebot is what Googlebot read of version i as it came, in words:
// the GOOGLEBOT READ column of robots history.
func (hs *historySite) googlebot(i int) string {
	return timeline.Describe(hs.tl.Read(hs.Versions[i].Time, fetch.Google, robots.Google))
}

// readings are how each family (timeline.Families) read version i as it
// came, as robots history -at says it.
func (hs *historySite) readings(i int) []timeline.FamilyReading {
	return hs.tl.Readings(hs.Versions[i].Time)
}

// change is how robots read version j against version i (indexes):
// timeline.Change, as robots watch reports a new version. It runs under
// ctx and returns its error when ctx ended.
func (hs *historySite) change(ctx context.Context, i, j int) ([]timeline.FamilyChange, *change.Report, error) {
	fams, rep := hs.tl.Change(ctx, i, j)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if fams == nil {
		fams = []timeline.FamilyChange{}
	}
	return fams, rep, nil
}

// historyVersion is a version in the API's answers: the store's fields
// and what Googlebot read of it (robots history's GOOGLEBOT READ).
type historyVersion struct {
	history.Version
	Googlebot string `json:"googlebot"`
}

// apiHistory answers GET /api/v1/history: the sites of the store;
// ?site= a site's versions; &v=N one version with its body and the
// families' readings; &a=N&b=M how robots read M against N.
func (s *Server) apiHistory(w http.ResponseWriter, r *http.Request) error {
	q, err := parseHistoryQuery(r.URL.Query())
	if err != nil {
		return err
	}
	ctx := r.Context()
	if q.site == "" {
		sites, err := s.historySites()
		if err != nil {
			return err
		}
		if sites == nil {
			sites = []history.Site{}
		}
		return writeJSON(ctx, w, http.StatusOK, struct {
			Sites []history.Site `json:"sites"`
		}{sites})
	}
	if err := s.work(ctx); err != nil {
		return err
	}
	hs, err := s.loadSite(q.site)
	if err != nil {
		return err
	}
	switch {
	case q.v != 0:
		i, err := hs.version(q.v)
		if err != nil {
			return err
		}
		until := ""
		if i+1 < len(hs.Versions) {
			until = stamp(hs.Versions[i+1].Time)
		}
		return writeJSON(ctx, w, http.StatusOK, struct {
			Site     string                   `json:"site"`
			Version  historyVersion           `json:"version"`
			Until    string                   `json:"until,omitempty"`
			Body     string                   `json:"body"`
			Families []timeline.FamilyReading `json:"families"`
		}{hs.Site, historyVersion{hs.Versions[i], hs.googlebot(i)}, until, string(hs.Versions[i].Body), hs.readings(i)})
	case q.a != 0:
		i, err := hs.version(q.a)
		if err != nil {
			return err
		}
		j, err := hs.version(q.b)
		if err != nil {
			return err
		}
		fams, rep := []timeline.FamilyChange{}, (*change.Report)(nil)
		if i != j {
			if fams, rep, err = hs.change(ctx, i, j); err != nil {
				return err
			}
		}
		return writeJSON(ctx, w, http.StatusOK, struct {
			Site     string                  `json:"site"`
			A        int                     `json:"a"`
			B        int                     `json:"b"`
			Families []timeline.FamilyChange `json:"families"`
			Report   *change.Report          `json:"report"`
		}{hs.Site, q.a, q.b, fams, rep})
	}
	vs := make([]historyVersion, len(hs.Versions))
	for i := range hs.Versions {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		vs[i] = historyVersion{hs.Versions[i], hs.googlebot(i)}
	}
	return writeJSON(ctx, w, http.StatusOK, struct {
		Site     string           `json:"site"`
		Versions []historyVersion `json:"versions"`
	}{hs.Site, vs})
}

// stamp writes a time as robots history does: RFC 3339 in UTC, with
// milliseconds when it has some, "-" for none.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	if t.Nanosecond() != 0 {
		return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
	}
	return t.UTC().Format(time.RFC3339)
}

// plural writes n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
