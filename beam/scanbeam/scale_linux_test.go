package scanbeam

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robotskit/robots/internal/warcgen"
	"github.com/robotskit/robots/scan"
)

// The scale of TestScale and its limits.
const (
	// scaleCaptures is the number of captures, unless the environment
	// variable SCANBEAM_SCALE_CAPTURES gives another.
	scaleCaptures = 100_000
	scaleFiles    = 4
	// scaleMaxRSS bounds the pipeline's peak resident set: 1 GiB.
	scaleMaxRSS = 1 << 30
	// scaleMaxCPU bounds the pipeline's CPU time per capture, as a
	// multiple of robots scan's.
	scaleMaxCPU = 2.0
)

// A childRun is what the kernel says of a child that has exited.
type childRun struct {
	rss  int64 // peak resident set, bytes
	cpu  time.Duration
	wall time.Duration
}

// perCPUSecond returns the captures per CPU-second of the run.
func (r childRun) perCPUSecond(captures int) float64 {
	return float64(captures) / max(r.cpu.Seconds(), 1e-9)
}

// TestScale runs the pipeline on prism over 100,000 Common-Crawl-shaped
// captures (internal/warcgen: four WARC.gz files, copies of one) in a
// child process, and scan.Run, the engine of `robots scan -out`, over the
// same files in another, one after the other. It checks that the
// pipeline's rows are robots scan's, its manifest and its summary the
// same, that its peak RSS stays under 1 GiB and its CPU time per capture
// within twice robots scan's. It prints the figures on standard error, in
// a line that starts with "scanbeam: TestScale:" (go test shows the
// output of a package that passes only with -v).
//
// SCANBEAM_SCALE_CAPTURES sets another number of captures, and
// SCANBEAM_SCALE_BODIES a folder of robots.txt files for the bodies:
//
//	SCANBEAM_SCALE_CAPTURES=400000 go test -run TestScale -v ./scanbeam
func TestScale(t *testing.T) {
	if testing.Short() {
		t.Skip("the 100,000-capture run takes a minute or two")
	}
	captures := scaleCaptures
	if v := os.Getenv("SCANBEAM_SCALE_CAPTURES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < scaleFiles {
			t.Fatalf("SCANBEAM_SCALE_CAPTURES=%q: want a number of at least %d", v, scaleFiles)
		}
		captures = n - n%scaleFiles
	}
	// SCANBEAM_SCALE_BODIES names a folder of robots.txt files, one per
	// host (warcgen.ReadDir), whose bodies the 200 responses serve in
	// turn instead of warcgen's few: a crawl's variety, which the
	// analysis reads once per distinct body.
	var bodies [][]byte
	var hosts []string
	if d := os.Getenv("SCANBEAM_SCALE_BODIES"); d != "" {
		var err error
		if bodies, hosts, err = warcgen.ReadDir(d, 0); err != nil {
			t.Fatal(err)
		}
		if len(bodies) == 0 {
			t.Fatalf("SCANBEAM_SCALE_BODIES=%s holds no file", d)
		}
	}
	start := time.Now()
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	// One file of Common-Crawl-shaped captures, and its copies: the
	// pipeline and robots scan read the copies as any other files (each
	// row names its own), and the input costs a quarter of the time.
	files := make([]string, scaleFiles)
	for i := range files {
		files[i] = filepath.Join(in, fmt.Sprintf("CC-MAIN-%05d.warc.gz", i))
	}
	f, err := os.Create(files[0])
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := warcgen.Write(bw, warcgen.Options{Captures: captures / scaleFiles, Seed: 1, Bodies: bodies, Hosts: hosts}); err != nil {
		t.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range files[1:] {
		if err := os.Link(files[0], name); err != nil {
			t.Fatal(err)
		}
	}
	generated := time.Since(start)

	cliDir, beamDir := filepath.Join(dir, "cli"), filepath.Join(dir, "beam")
	cli := runChild(t, scaleJob{Engine: "cli", Files: files, Output: cliDir, Summary: filepath.Join(dir, "cli.json"), Format: FormatParquet})
	bm := runChild(t, scaleJob{Engine: "beam", Pattern: filepath.Join(in, "*.warc.gz"), Output: beamDir,
		Summary: filepath.Join(dir, "beam.json"), Format: FormatParquet})

	parts := sameOutput(t, beamDir, cliDir, FormatParquet)
	if len(parts) != scaleFiles {
		t.Errorf("%d parts, want %d", len(parts), scaleFiles)
	}
	var rows int64
	for _, e := range readManifest(t, ManifestPath(beamDir)) {
		rows += e.Rows
	}
	if rows != int64(captures) {
		t.Errorf("the manifest counts %d rows, want %d", rows, captures)
	}
	if g, w := readSummaryFile(t, filepath.Join(dir, "beam.json")), readSummaryFile(t, filepath.Join(dir, "cli.json")); g != w {
		t.Errorf("the summary differs from robots scan's:\ngot  %.2000s\nwant %.2000s", g, w)
	}
	if sum, err := scan.ReadSummary(strings.NewReader(readSummaryFile(t, filepath.Join(dir, "beam.json")))); err != nil || sum.Captures != int64(captures) {
		t.Errorf("the summary: %+v, %v; want %d captures", sum, err, captures)
	}

	ratio := bm.cpu.Seconds() / max(cli.cpu.Seconds(), 1e-9)
	kind := "warcgen's bodies"
	if bodies != nil {
		kind = fmt.Sprintf("%d bodies of SCANBEAM_SCALE_BODIES", len(bodies))
	}
	line := fmt.Sprintf("scanbeam: TestScale: %d captures (%s) in %d files, Parquet: pipeline on prism: peak RSS %d MiB, %.1f CPU-s, %.0f captures/CPU-s, %.1fs; "+
		"robots scan engine: peak RSS %d MiB, %.1f CPU-s, %.0f captures/CPU-s, %.1fs; CPU ratio %.2f; test %.0fs (input %.1fs)",
		captures, kind, scaleFiles, bm.rss>>20, bm.cpu.Seconds(), bm.perCPUSecond(captures), bm.wall.Seconds(),
		cli.rss>>20, cli.cpu.Seconds(), cli.perCPUSecond(captures), cli.wall.Seconds(), ratio,
		time.Since(start).Seconds(), generated.Seconds())
	t.Log(line)
	fmt.Fprintln(os.Stderr, line)
	if bm.rss >= scaleMaxRSS {
		t.Errorf("the pipeline's peak RSS is %d MiB, want under %d MiB", bm.rss>>20, scaleMaxRSS>>20)
	}
	if ratio > scaleMaxCPU {
		t.Errorf("the pipeline takes %.2f times robots scan's CPU time, want at most %.1f", ratio, scaleMaxCPU)
	}
}

// runChild runs job in a child process, this test binary started again
// (TestMain), and returns the kernel's figures for it.
func runChild(t *testing.T, job scaleJob) childRun {
	t.Helper()
	spec, err := json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), scaleChildEnv+"="+string(spec))
	out := &tailWriter{max: 16 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		t.Fatalf("child %s: %v; its output ends:\n%s", job.Engine, err, out.buf)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatalf("no rusage for the child: %T", cmd.ProcessState.SysUsage())
	}
	// ru_maxrss is in kilobytes on Linux (getrusage(2)).
	return childRun{rss: ru.Maxrss << 10, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), wall: wall}
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - w.max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(p), nil
}
