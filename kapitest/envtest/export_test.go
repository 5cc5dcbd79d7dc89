package envtest

import "io"

// SetWarningOutput makes Start write its warnings to w until the returned
// function restores standard error.
func SetWarningOutput(w io.Writer) (restore func()) {
	old := warningOutput
	warningOutput = w
	return func() { warningOutput = old }
}
