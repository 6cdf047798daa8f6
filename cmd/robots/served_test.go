package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/apicore"
)

// TestServedWhole: a file given by its text over 500 KiB is read as if
// served whole with each robot's status rules (fetch.Policy.Served):
// Google reads its first 500 KiB, Yandex ignores it whole (Yandex's
// robots.txt help). robots test -file, robots assert -file, robots logs
// -file and the API's test of a pasted file give the same verdicts.
func TestServedWhole(t *testing.T) {
	dir := t.TempDir()
	var big strings.Builder
	big.WriteString("User-agent: *\nDisallow: /private/\n")
	for big.Len() <= 520<<10 {
		big.WriteString("# padding padding padding padding padding padding padding padding\n")
	}
	file := filepath.Join(dir, "robots.txt")
	os.WriteFile(file, []byte(big.String()), 0o666)

	want := map[string]bool{"Googlebot": false, "YandexBot": true} // allowed /private/x?
	for robot, allowed := range want {
		out, _, _ := runCLI(t, nil, "test", "-robot", robot, "-file", file, "-format", "json", "/private/x")
		var tr struct{ Results []struct{ Allowed bool } }
		if err := json.Unmarshal([]byte(out), &tr); err != nil || len(tr.Results) != 1 || tr.Results[0].Allowed != allowed {
			t.Errorf("robots test -robot %s: %s", robot, out)
		}

		spec := filepath.Join(dir, robot+".assert")
		verb := "disallow"
		if allowed {
			verb = "allow"
		}
		os.WriteFile(spec, []byte(fmt.Sprintf("%s %s /private/x\n", robot, verb)), 0o666)
		out, errs, code := runCLI(t, nil, "assert", "-file", file, spec)
		if code != exitOK {
			t.Errorf("robots assert %s %s: exit %d\n%s%s", robot, verb, code, out, errs)
		}

		body, _ := json.Marshal(map[string]any{"robots": big.String(), "robots_list": []string{robot}, "urls": []string{"/private/x"}})
		status, answer := apicore.Pasted("test", body)
		if status != 200 || !strings.Contains(string(answer), fmt.Sprintf(`"allowed": %v`, allowed)) {
			t.Errorf("the API for %s: %d %.300s", robot, status, answer)
		}
	}

	log := filepath.Join(dir, "access.log")
	os.WriteFile(log, []byte(
		`1.2.3.4 - - [01/Nov/2026:10:00:00 +0000] "GET /private/x HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`+"\n"+
			`1.2.3.4 - - [01/Nov/2026:10:00:01 +0000] "GET /private/x HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"`+"\n"), 0o666)
	out, _, _ := runCLI(t, nil, "logs", "-file", file, "-format", "json", log)
	var lr struct {
		Robots []struct {
			Robot      string
			Violations int
		}
	}
	json.Unmarshal([]byte(out), &lr)
	got := map[string]int{}
	for _, r := range lr.Robots {
		got[r.Robot] = r.Violations
	}
	if got["Googlebot"] != 1 || got["YandexBot"] != 0 {
		t.Errorf("robots logs: %v\n%s", got, out)
	}
}
