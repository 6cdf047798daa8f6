package groups

import (
	"testing"

	"github.com/robotskit/robots/lint/internal/check/checktest"
)

func TestExamples(t *testing.T) { checktest.Examples(t, Checks) }

func TestCorpus(t *testing.T) { checktest.Corpus(t, Checks) }
