package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"strconv"
	"strings"
	"time"

	"github.com/robotskit/robots/fetch"
)

// newClient returns the HTTP client of URL inputs when Job.Client is
// nil: http.DefaultTransport's settings, with a limit on the wait for a
// response's headers.
func newClient(idle time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = idle
	return &http.Client{Transport: t}
}

// isURL reports whether s names an http or https resource rather than a
// file.
func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// urlProblem says what is wrong with a URL in words, without Go's
// parse "…": prefix.
func urlProblem(err error) string {
	var ue *neturl.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if err == nil {
		return "no host"
	}
	return strings.TrimPrefix(err.Error(), "net/url: ")
}

// openURL starts the download of a URL input, waiting for one of the
// places of Job.MaxDownloads; closing the source frees the place.
func (r *runner) openURL(u string) (*source, error) {
	if p, err := neturl.Parse(u); err != nil || p.Host == "" {
		return nil, fmt.Errorf("not a URL: %s", urlProblem(err))
	}
	select {
	case r.downloads <- struct{}{}:
	case <-r.ctx.Done():
		return nil, r.ctx.Err()
	}
	d := &download{ctx: r.ctx, client: r.client, url: u, attempts: r.attempts, first: r.retryDelay, idle: r.idle}
	if err := d.open(); err != nil {
		<-r.downloads
		return nil, err
	}
	released := false
	return &source{r: d, total: &r.bytes, close: func() error {
		d.closeBody()
		if !released {
			released = true
			<-r.downloads
		}
		return nil
	}}, nil
}

// download streams a URL. A response other than 200 is an error; a 5xx,
// a 429 or a network error is retried after a delay that doubles each
// time; a stream that breaks off, or during which nothing arrives for
// idle, is resumed from where it stopped with a Range request (RFC 9110
// §14.2; a 206 whose Content-Range starts there, §15.3.7), or, from a
// server that ignores Range, by skipping what was read.
type download struct {
	ctx      context.Context
	client   *http.Client
	url      string
	off      int64
	attempts int           // left
	first    time.Duration // the delay before the first retry
	idle     time.Duration
	delay    time.Duration
	lastErr  error

	body   io.ReadCloser
	cancel context.CancelFunc
	timer  *time.Timer
}

// open makes the request, with retries.
func (d *download) open() error {
	for {
		retry, err := d.try()
		if err == nil {
			return nil
		}
		if err := d.wait(retry); err != nil {
			return err
		}
	}
}

// wait waits before the next attempt, or says why there is none.
func (d *download) wait(retry bool) error {
	if d.ctx.Err() != nil {
		return d.ctx.Err()
	}
	d.attempts--
	if !retry || d.attempts <= 0 {
		return d.lastErr
	}
	if d.delay == 0 {
		d.delay = d.first
	}
	t := time.NewTimer(d.delay)
	defer t.Stop()
	d.delay *= 2
	select {
	case <-t.C:
		return nil
	case <-d.ctx.Done():
		return d.ctx.Err()
	}
}

// try makes one request; retry says whether another may succeed.
func (d *download) try() (retry bool, err error) {
	defer func() { d.lastErr = err }()
	ctx, cancel := context.WithCancel(d.ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.url, nil)
	if err != nil {
		cancel()
		return false, err
	}
	req.Header.Set("User-Agent", fetch.DefaultUserAgent)
	// The bytes as stored: a Range counts them, and a .gz stays one.
	req.Header.Set("Accept-Encoding", "identity")
	if d.off > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(d.off, 10)+"-")
	}
	timer := time.AfterFunc(d.idle, cancel)
	resp, err := d.client.Do(req)
	if err != nil {
		timer.Stop()
		cancel()
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.Canceled) && d.ctx.Err() == nil {
			err = fmt.Errorf("no response in %v", d.idle)
		}
		return true, err
	}
	fail := func(err error, retry bool) (bool, error) {
		resp.Body.Close()
		timer.Stop()
		cancel()
		return retry, err
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		if d.off > 0 {
			// The server ignored the Range: skip what was read.
			if _, err := io.CopyN(io.Discard, resp.Body, d.off); err != nil {
				return fail(err, true)
			}
		}
	case resp.StatusCode == http.StatusPartialContent && d.off > 0:
		if start, ok := contentRangeStart(resp.Header.Get("Content-Range")); !ok || start != d.off {
			return fail(fmt.Errorf("resuming at byte %d: the server sent Content-Range %q", d.off, resp.Header.Get("Content-Range")), false)
		}
	default:
		retry := resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
		return fail(errors.New("HTTP "+resp.Status), retry)
	}
	d.body, d.cancel, d.timer = resp.Body, cancel, timer
	return false, nil
}

// contentRangeStart returns the first byte of "bytes FIRST-LAST/LENGTH"
// (RFC 9110 §14.4).
func contentRangeStart(v string) (int64, bool) {
	v, ok := strings.CutPrefix(strings.TrimSpace(v), "bytes ")
	if !ok {
		return 0, false
	}
	first, _, ok := strings.Cut(v, "-")
	n, err := strconv.ParseInt(strings.TrimSpace(first), 10, 64)
	return n, ok && err == nil
}

func (d *download) Read(p []byte) (int, error) {
	for {
		if d.body == nil {
			if err := d.open(); err != nil {
				return 0, err
			}
		}
		n, err := d.body.Read(p)
		d.off += int64(n)
		d.timer.Reset(d.idle)
		if err == nil || err == io.EOF {
			return n, err
		}
		// The stream broke off: resume on the next call.
		d.closeBody()
		if d.ctx.Err() != nil {
			return n, d.ctx.Err()
		}
		if errors.Is(err, context.Canceled) {
			err = fmt.Errorf("nothing received for %v", d.idle)
		}
		d.lastErr = err
		if werr := d.wait(true); werr != nil {
			return n, werr
		}
		if n > 0 {
			return n, nil
		}
	}
}

func (d *download) closeBody() {
	if d.body != nil {
		d.timer.Stop()
		d.body.Close()
		d.cancel()
		d.body = nil
	}
}
