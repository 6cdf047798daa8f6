// Package check holds what the checks of package lint share: the pass
// over one file, the checker's lossless model of its lines and groups,
// and the vocabulary of a finding (a [Diagnostic] with its [Fix]).
//
// # The model
//
// [NewPass] reads a parsed file into [Line] values, one per line of the
// file, blank lines, comments and invalid lines included, each with the
// directive its key names (exactly, as a variant Google accepts, or as a
// likely misspelling: [KeyMatch]) and the canonical group it belongs to
// ([Group]: a run of User-agent lines and the lines up to the next such
// run, as RFC 9309 §2.1 and Google's parser read them). The model keeps
// what compiled rules drop, so that a check can point at it.
//
// # Checks and their findings
//
// A [Check] is a value: its code, its documentation and its Run function,
// which reads the pass and reports what it finds with [Pass.Report] and
// its siblings. A finding may carry a [Fix]: byte [Edit]s of the input,
// built with the edit helpers of the pass ([Pass.DeleteLine],
// [Pass.InsertAfter], …), and a [FixClass] that says what it may change;
// a [Verifier] picks the class of a fix by proving it with package change.
// The checks live in the packages under lint/internal/checks, one per
// section of the catalogue; package lint runs them and turns their
// findings into its public diagnostics.
package check
