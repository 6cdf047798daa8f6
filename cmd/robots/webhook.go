package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// webhookWait is how long a pass of robots watch waits, at its end, for
// the webhook's deliveries still under way.
const webhookWait = 30 * time.Second

// webhookQueue bounds the deliveries waiting: a receiver that is down
// for long must not make the watcher hold every report.
const webhookQueue = 1000

// webhookMaxBody bounds a report's JSON; a larger one is sent with the
// first webhookRules rule lines of its report only (siteReport.Omitted).
const (
	webhookMaxBody = 1 << 20
	webhookRules   = 100
)

// A webhook POSTs reports of robots watch to a URL, one at a time, in the
// background: a delivery that fails (no answer, a 5xx, a 429) is tried
// again after a pause that doubles each time (1 s, 2 s, 4 s, 8 s: five
// tries, each given 10 s), or after the receiver's Retry-After when it
// gives one, up to a minute; a 4xx other than 429 is not tried again. A
// pass never waits for a delivery, only at its end (close).
type webhook struct {
	url    string
	client *http.Client
	log    io.Writer
	// backoff is the first pause between tries; tries their number.
	backoff time.Duration
	tries   int

	// secret, when set, signs each body: X-Robots-Signature-256 is
	// "sha256=" and the hex HMAC-SHA256 of the body under it (RFC 2104),
	// as GitHub signs its webhooks, so that a receiver can tell the
	// watcher's reports from anyone's POST.
	secret []byte

	queue chan []byte
	wg    sync.WaitGroup
	stop  context.CancelFunc
	ctx   context.Context
	once  sync.Once
}

// webhookPayload is the JSON a webhook receives: the event and the
// site's report (docs/watch.md).
type webhookPayload struct {
	Event string `json:"event"`
	*siteReport
}

func newWebhook(url string, log io.Writer) *webhook {
	ctx, stop := context.WithCancel(context.Background())
	h := &webhook{
		url: url, log: log, client: &http.Client{Timeout: 10 * time.Second},
		backoff: time.Second, tries: 5,
		queue: make(chan []byte, webhookQueue), ctx: ctx, stop: stop,
	}
	h.wg.Add(1)
	go h.run()
	return h
}

// send queues a report; when the queue is full the report is dropped,
// and the log says so.
func (h *webhook) send(event string, rep *siteReport) {
	body, err := json.Marshal(webhookPayload{Event: event, siteReport: rep})
	if err == nil && len(body) > webhookMaxBody && rep.Report != nil {
		// A change of thousands of rules: the first rule lines, without
		// the per-robot evidence, and a flag that says so.
		short := *rep
		r := *rep.Report
		short.Omitted = max(len(r.Rules)-webhookRules, 0)
		r.Rules = r.Rules[:min(len(r.Rules), webhookRules)]
		r.Families, r.Probes = nil, nil
		short.Report = &r
		body, err = json.Marshal(webhookPayload{Event: event, siteReport: &short})
	}
	if err != nil {
		fmt.Fprintf(h.log, "robots: webhook: %v\n", err)
		return
	}
	select {
	case h.queue <- body:
	default:
		fmt.Fprintf(h.log, "robots: webhook: %d reports wait for %s already; the report of %s is dropped\n", webhookQueue, h.url, rep.Site)
	}
}

func (h *webhook) run() {
	defer h.wg.Done()
	for body := range h.queue {
		if err := h.deliver(body); err != nil {
			fmt.Fprintf(h.log, "robots: webhook %s: %v\n", h.url, err)
		}
	}
}

// deliver POSTs one report, trying again as the type says.
func (h *webhook) deliver(body []byte) error {
	pause := h.backoff
	var last error
	for try := 1; try <= h.tries; try++ {
		wait, err := h.post(body)
		if err == nil {
			return nil
		}
		last = err
		if wait < 0 || try == h.tries {
			break
		}
		if wait == 0 {
			wait = pause
			pause *= 2
		}
		select {
		case <-h.ctx.Done():
			return fmt.Errorf("not delivered (%v); gave up when the command ended", last)
		case <-time.After(wait):
		}
	}
	return fmt.Errorf("not delivered: %v", last)
}

// post makes one try. wait is how long to pause before the next: 0 for
// the backoff's own, more when the receiver said, -1 for no retry.
func (h *webhook) post(body []byte) (wait time.Duration, err error) {
	req, err := http.NewRequestWithContext(h.ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return -1, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "robots/"+buildVersion()+" (robots watch)")
	if len(h.secret) > 0 {
		req.Header.Set("X-Robots-Signature-256", sign(h.secret, body))
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	switch {
	case resp.StatusCode < 300:
		return 0, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			return min(time.Duration(s)*time.Second, time.Minute), fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		return 0, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return -1, fmt.Errorf("HTTP %d: the receiver refused the report", resp.StatusCode)
}

// close waits up to wait for the queued reports, then gives up on those
// left, saying how many.
func (h *webhook) close(wait time.Duration) {
	h.once.Do(func() {
		close(h.queue)
		done := make(chan struct{})
		go func() { h.wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(wait):
			left := len(h.queue)
			h.stop()
			<-done
			fmt.Fprintf(h.log, "robots: webhook %s: stopped waiting after %v; %s not delivered\n", h.url, wait, plural(left, "more report"))
		}
		h.stop()
	})
}

// webhookSecretEnv names the environment variable that holds the secret
// robots watch signs its webhook's bodies with (not a flag: a command
// line is visible to every user of the machine).
const webhookSecretEnv = "ROBOTS_WEBHOOK_SECRET"

// sign returns the X-Robots-Signature-256 value of body under secret:
// "sha256=" and the hex HMAC-SHA256 (RFC 2104; FIPS 180-4).
func sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}
