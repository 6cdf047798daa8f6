package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
)

func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		io.WriteString(w, "a page")
	}))
	defer site.Close()

	f := &fetch.Fetcher{UserAgent: "ExampleBot/1.0"}
	res, err := f.Get(context.Background(), site.URL+"/private/report")
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, res.Outcome, res.Access)
	fmt.Println(res.Allowed("ExampleBot", site.URL+"/private/report"))
	fmt.Println(res.Allowed("ExampleBot", site.URL+"/public"))
	// Output:
	// 200 success rules
	// false
	// true
}

func ExampleTransport() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: ExampleBot\nDisallow: /private\n")
			return
		}
		io.WriteString(w, "a page")
	}))
	defer site.Close()

	client := &http.Client{Transport: &fetch.Transport{
		Agent: robots.Agent{Tokens: []string{"ExampleBot"}},
	}}
	resp, err := client.Get(site.URL + "/public")
	if err == nil {
		fmt.Println(resp.Status)
		resp.Body.Close()
	}
	_, err = client.Get(site.URL + "/private/x")
	var refused *fetch.DisallowedError
	fmt.Println(errors.As(err, &refused), refused.Verdict.Decision.Line)
	// Output:
	// 200 OK
	// true 2
}

func ExampleResult_Under() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Forbidden", http.StatusForbidden)
	}))
	defer site.Close()

	res, _ := (&fetch.Fetcher{}).Fetch(context.Background(), site.URL)
	for _, p := range fetch.Policies() {
		fmt.Println(p, res.Under(p).Access)
	}
	// Output:
	// google all
	// rfc9309 all
	// bing all
	// yandex all
	// draft1996 none
	// mandelbot all
}
