package server

import (
	"net/http"
	"testing"
)

// TestIsJSON: media types are compared without regard to case (RFC 9110
// §8.3.1), with any parameters.
func TestIsJSON(t *testing.T) {
	for _, tc := range []struct {
		ct   string
		want bool
	}{
		{"application/json", true},
		{"Application/JSON; charset=UTF-8", true},
		{"APPLICATION/JSON", true},
		{"application/json;charset=utf-8", true},
		{" application/json ; charset=latin1", true},
		{"Text/Json", true},
		{"application/json; charset", true}, // a broken parameter, as before
		{"application/jsonx", false},
		{"application/json-patch+json", false},
		{"application/xml", false},
		{"text/plain", false},
		{"multipart/form-data; boundary=x", false},
		{"application/x-www-form-urlencoded", false},
		{"application", false},
		{"application/json/x", false},
		{";application/json", false},
	} {
		if got := isJSON(tc.ct); got != tc.want {
			t.Errorf("isJSON(%q) = %v, want %v", tc.ct, got, tc.want)
		}
	}
}

// TestContentTypeCase: the API takes JSON whatever the case of its media
// type, and still refuses other types.
func TestContentTypeCase(t *testing.T) {
	_, ts := newTest(t, Config{})
	for _, tc := range []struct {
		ct   string
		want int
	}{
		{"application/json", http.StatusOK},
		{"Application/JSON; charset=UTF-8", http.StatusOK},
		{"APPLICATION/JSON", http.StatusOK},
		{"Application/XML", http.StatusUnsupportedMediaType},
	} {
		for path, req := range map[string]string{
			"/api/v1/check": `{"robots": "User-agent: *\nDisallow: /x\n"}`,
			"/api/v1/test":  `{"robots": "User-agent: *\nDisallow: /x\n", "urls": ["/x"]}`,
		} {
			status, _, body := do(t, ts, "POST", path, tc.ct, req)
			if status != tc.want {
				t.Errorf("POST %s with Content-Type %q: %d %s, want %d", path, tc.ct, status, body, tc.want)
			}
		}
	}
}
