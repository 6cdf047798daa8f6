package lint

import (
	"reflect"
	"testing"
	"time"
)

// TestFetchChecked: every field of a Fetch that the checks read reaches
// them, with its value.
func TestFetchChecked(t *testing.T) {
	f := &Fetch{
		Hops:        []Hop{{URL: "https://example.com/robots.txt", Status: 301, Location: "/x"}},
		Elapsed:     time.Second,
		TimedOut:    true,
		Err:         "reset",
		ContentType: "text/html", CacheControl: "no-store", Expires: "soon",
		Size:             7,
		TooManyRedirects: true, Loop: true,
		Broken: "short",
		Policy: "google", Outcome: "success", Access: "rules", Reason: "why",
		CaseVariant: "https://example.com/ROBOTS.TXT",
		Date:        time.Unix(1, 0),
		Siblings:    []Sibling{{URL: "http://example.com/robots.txt", Status: 200, Body: "b"}},
	}
	c := f.checked()
	pub, in := reflect.ValueOf(f).Elem(), reflect.ValueOf(c).Elem()
	for i := 0; i < in.NumField(); i++ {
		name := in.Type().Field(i).Name
		pf := pub.FieldByName(name)
		if !pf.IsValid() {
			t.Errorf("check.Fetch.%s is no field of Fetch", name)
			continue
		}
		if pf.IsZero() {
			t.Errorf("the test leaves Fetch.%s zero", name)
		}
		if got, want := in.Field(i), pf; got.Kind() == reflect.Slice {
			if got.Len() != want.Len() || got.Len() > 0 && !reflect.DeepEqual(got.Index(0).Interface(), want.Index(0).Convert(got.Index(0).Type()).Interface()) {
				t.Errorf("%s: %v, want %v", name, got, want)
			}
		} else if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	if (*Fetch)(nil).checked() != nil {
		t.Error("a nil Fetch is not nil to the checks")
	}
}
