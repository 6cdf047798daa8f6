package fetch_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/robotskit/robots/fetch"
)

// A site that reserves text-and-data-mining rights on its PDF documents and
// not on its JPEG images, as the example of the TDMRep final report does.
func ExampleFetchTDMRep() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != fetch.TDMRepPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[
  {"location": "/directory-a/", "tdm-reservation": 1},
  {"location": "/directory-b/images/*.jpg", "tdm-reservation": 0}
]`)
	}))
	defer site.Close()

	file, err := fetch.FetchTDMRep(context.Background(), site.Client(), site.URL)
	if err != nil || file == nil {
		fmt.Println("no file:", err)
		return
	}
	for _, path := range []string{"/directory-a/report.pdf", "/directory-b/images/photo.jpg", "/about"} {
		rule, ok := file.For(path)
		fmt.Println(path, rule.Reservation, ok)
	}
	// Output:
	// /directory-a/report.pdf 1 true
	// /directory-b/images/photo.jpg 0 true
	// /about -1 false
}
