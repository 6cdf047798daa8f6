package fetch

import (
	"testing"

	"github.com/robotskit/robots/lint/internal/check/checktest"
)

func TestCorpus(t *testing.T) { checktest.Corpus(t, Checks) }
