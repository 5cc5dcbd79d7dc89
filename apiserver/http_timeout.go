package apiserver

import (
	"net/http"
	"time"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/meta"
)

// timeoutError checks the timeout query parameter of a request as kube's
// request-deadline filter does, in front of every request that is not
// long-running (watches, and the proxy, exec, attach, portforward and log
// subresources): a value that is no Go duration is 400. kapi answers its
// requests well within any deadline, so a valid timeout changes nothing.
func timeoutError(r *http.Request, info requestinfo.Info) error {
	v := queryParam(r, "timeout")
	if v == "" || longRunning(info) {
		return nil
	}
	if _, err := time.ParseDuration(v); err != nil {
		return meta.BadRequest("invalid timeout specified in the request URL - " + err.Error())
	}
	return nil
}

// longRunning reports the requests kube exempts from its request deadline.
func longRunning(info requestinfo.Info) bool {
	if info.Verb == VerbWatch {
		return true
	}
	switch info.Subresource {
	case "proxy", "exec", "attach", "portforward", "log":
		return true
	}
	return false
}
