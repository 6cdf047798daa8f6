package fetch_test

import (
	"testing"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/internal/cachetest"
)

// TestCacheBehaviour runs the checks every Cache must pass against the
// MemoryCache; the disk and Redis caches run them in their own packages.
func TestCacheBehaviour(t *testing.T) {
	t.Run("memory", func(t *testing.T) { cachetest.Run(t, fetch.NewMemoryCache(0)) })
}
