package server

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/internal/wire"
)

//go:embed ui
var uiFiles embed.FS

var uiTemplate = template.Must(template.New("index.html").Funcs(template.FuncMap{
	"download": func(s string) template.URL { return template.URL("data:text/plain;charset=utf-8," + url.PathEscape(s)) },
}).ParseFS(uiFiles, "ui/index.html"))

func staticHandler() http.Handler {
	sub, _ := fs.Sub(uiFiles, "ui/static")
	return http.StripPrefix("/static/", http.FileServer(http.FS(sub)))
}

// uiData is what the page template shows.
type uiData struct {
	Robots   string
	URL      string
	Thorough bool
	Profile  string
	Profiles []uiOption
	Result   *wire.CheckResponse
	Diff     string
	Error    string
	Counts   map[string]int
}

// A uiOption is an <option> of a select.
type uiOption struct{ Value, Label string }

// uiProfiles are the choices of the form's profile select.
var uiProfiles = func() []uiOption {
	opts := []uiOption{{"", "every robot family"}}
	for _, p := range robots.Profiles() {
		opts = append(opts, uiOption{p.String(), "only " + p.String() + " robots"})
	}
	return opts
}()

func (s *Server) uiIndex(w http.ResponseWriter, r *http.Request) error {
	return render(w, http.StatusOK, &uiData{})
}

// uiCheck answers the page's form without JavaScript: the check runs on
// the server and the page comes back with the results.
func (s *Server) uiCheck(w http.ResponseWriter, r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		return render(w, http.StatusBadRequest, &uiData{Error: "the form could not be read: " + err.Error()})
	}
	d := &uiData{Robots: r.PostFormValue("robots"), URL: strings.TrimSpace(r.PostFormValue("url")), Thorough: r.PostFormValue("thorough") != "",
		Profile: r.PostFormValue("profile")}
	req := wire.CheckRequest{Thorough: d.Thorough, Profile: d.Profile}
	if d.URL != "" {
		req.URL = d.URL
	} else {
		req.Robots = &d.Robots
	}
	res, err := s.runCheck(r.Context(), req)
	if err != nil {
		d.Error = err.Error()
		return render(w, http.StatusOK, d)
	}
	d.Result = res
	d.Counts = map[string]int{}
	for _, x := range res.Diagnostics {
		d.Counts[x.Severity]++
	}
	original := d.Robots
	if res.Fixed != nil && *res.Fixed != original && d.URL == "" {
		d.Diff = textedit.Unified("robots.txt", "robots.txt (fixed)", original, *res.Fixed)
	}
	return render(w, http.StatusOK, d)
}

func render(w http.ResponseWriter, status int, d *uiData) error {
	d.Profiles = uiProfiles
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	return uiTemplate.Execute(w, d)
}
