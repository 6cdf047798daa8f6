package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus series.
type metrics struct {
	requests *prometheus.CounterVec
	errors   *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	fetches  *prometheus.CounterVec
	cache    *prometheus.CounterVec
}

func newMetrics(reg *prometheus.Registry, g *gate, fp *fetchPool) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "robots_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "robots_http_errors_total",
			Help: "Requests that failed or were stopped or refused, by route and reason: the error code (deadline_exceeded, client_closed, overloaded, queue_timeout, rate_limited, too_large, too_much_work, answer_too_large, …).",
		}, []string{"route", "reason"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "robots_http_request_duration_seconds", Help: "HTTP request latencies by route.",
			Buckets: []float64{.001, .005, .01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route"}),
		fetches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "robots_fetches_total", Help: "robots.txt and page fetches by kind and outcome.",
		}, []string{"kind", "outcome"}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "robots_cache_total", Help: "robots.txt cache lookups by result (hit or miss).",
		}, []string{"result"}),
	}
	active := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robots_http_active_requests", Help: "Heavy requests being worked on (check, test, page).",
	}, func() float64 { return float64(g.active()) })
	queued := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robots_http_queued_requests", Help: "Heavy requests waiting for a slot.",
	}, func() float64 { return float64(g.queued()) })
	fetching := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robots_active_fetches", Help: "Fetches of remote sites under way (they hold no slot of the heavy requests).",
	}, func() float64 { return float64(fp.active()) })
	fetchQueued := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robots_queued_fetches", Help: "Fetches of remote sites waiting for a turn (MaxFetches, MaxFetchesPerHost).",
	}, func() float64 { return float64(fp.queued()) })
	reg.MustRegister(m.requests, m.errors, m.latency, m.fetches, m.cache, active, queued, fetching, fetchQueued,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (s *Server) metricsHandler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{})
}

// statusWriter records the status a handler wrote, the octets of the
// body, the first write error, and (code) why the request failed.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	err    error
	code   string
}

// Unwrap lets http.ResponseController reach the connection (the body's
// read deadline).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// instrument counts, times and logs the requests of a route, with the
// status the client got: the error's when the work stopped at the
// deadline, 499 when the client went away first. A request whose answer
// was cut (its client went away, or the deadline came while it was
// written) is logged with its status, the octets sent and why.
func (s *Server) instrument(route string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			// Also when the handler cut the connection (http.ErrAbortHandler).
			if sw.status == 0 {
				sw.status = http.StatusOK
			}
			if sw.err != nil && sw.code == "" {
				sw.code = "client_closed" // the answer could not be written
			}
			d := time.Since(start)
			s.metrics.requests.WithLabelValues(route, strconv.Itoa(sw.status)).Inc()
			s.metrics.latency.WithLabelValues(route).Observe(d.Seconds())
			attrs := []any{"method", r.Method, "path", r.URL.Path, "route", route,
				"status", sw.status, "duration_ms", float64(d.Microseconds()) / 1000, "bytes", sw.bytes, "client", s.clientIP(r)}
			if sw.code != "" {
				s.metrics.errors.WithLabelValues(route, sw.code).Inc()
				attrs = append(attrs, "error", sw.code)
			}
			s.log.Info("request", attrs...)
		}()
		h.ServeHTTP(sw, r)
	})
}
