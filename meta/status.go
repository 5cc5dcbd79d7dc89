package meta

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
)

// Reason is the machine-readable reason of a failed Status.
type Reason string

// The reasons kube-apiserver sends; client-go classifies errors by them.
const (
	ReasonBadRequest            Reason = "BadRequest"
	ReasonUnauthorized          Reason = "Unauthorized"
	ReasonForbidden             Reason = "Forbidden"
	ReasonNotFound              Reason = "NotFound"
	ReasonAlreadyExists         Reason = "AlreadyExists"
	ReasonConflict              Reason = "Conflict"
	ReasonGone                  Reason = "Gone"
	ReasonExpired               Reason = "Expired"
	ReasonInvalid               Reason = "Invalid"
	ReasonMethodNotAllowed      Reason = "MethodNotAllowed"
	ReasonNotAcceptable         Reason = "NotAcceptable"
	ReasonUnsupportedMediaType  Reason = "UnsupportedMediaType"
	ReasonRequestEntityTooLarge Reason = "RequestEntityTooLarge"
	ReasonTooManyRequests       Reason = "TooManyRequests"
	ReasonTimeout               Reason = "Timeout"
	ReasonInternalError         Reason = "InternalError"
	ReasonServiceUnavailable    Reason = "ServiceUnavailable"
)

// Status is kube's metav1.Status: the body of every error response, of a
// delete that does not return the object, and of a watch ERROR event. It
// implements error, so it travels up the stack unchanged.
type Status struct {
	Kind       string         `json:"kind"`
	APIVersion string         `json:"apiVersion"`
	Metadata   ListMeta       `json:"metadata"`
	Status     string         `json:"status,omitempty"`
	Message    string         `json:"message,omitempty"`
	Reason     Reason         `json:"reason,omitempty"`
	Details    *StatusDetails `json:"details,omitempty"`
	Code       int32          `json:"code,omitempty"`
}

// ListMeta is the metadata of lists and of Status.
type ListMeta struct {
	ResourceVersion    string `json:"resourceVersion,omitempty"`
	Continue           string `json:"continue,omitempty"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

// StatusDetails names the object a Status is about and why it failed.
type StatusDetails struct {
	Name              string        `json:"name,omitempty"`
	Group             string        `json:"group,omitempty"`
	Kind              string        `json:"kind,omitempty"`
	UID               string        `json:"uid,omitempty"`
	Causes            []StatusCause `json:"causes,omitempty"`
	RetryAfterSeconds int32         `json:"retryAfterSeconds,omitempty"`
}

// StatusCause is one reason a request failed, usually tied to a field.
type StatusCause struct {
	Type    CauseType `json:"reason,omitempty"`
	Message string    `json:"message,omitempty"`
	Field   string    `json:"field,omitempty"`
}

// CauseType classifies a StatusCause.
type CauseType string

// Cause types kube-apiserver uses.
const (
	CauseFieldValueNotFound      CauseType = "FieldValueNotFound"
	CauseFieldValueRequired      CauseType = "FieldValueRequired"
	CauseFieldValueDuplicate     CauseType = "FieldValueDuplicate"
	CauseFieldValueInvalid       CauseType = "FieldValueInvalid"
	CauseFieldValueNotSupported  CauseType = "FieldValueNotSupported"
	CauseFieldValueForbidden     CauseType = "FieldValueForbidden"
	CauseFieldValueTooLong       CauseType = "FieldValueTooLong"
	CauseFieldValueTooMany       CauseType = "FieldValueTooMany"
	CauseFieldValueTypeInvalid   CauseType = "FieldValueTypeInvalid"
	CauseInternal                CauseType = "InternalError"
	CauseUnexpectedServerResp    CauseType = "UnexpectedServerResponse"
	CauseFieldManagerConflict    CauseType = "FieldManagerConflict"
	CauseResourceVersionTooLarge CauseType = "ResourceVersionTooLarge"
)

// Error returns the message, as client-go's StatusError does.
func (s *Status) Error() string { return s.Message }

// HTTPStatus returns the response code, 500 when unset.
func (s *Status) HTTPStatus() int {
	if s.Code == 0 {
		return http.StatusInternalServerError
	}
	return int(s.Code)
}

func failure(code int, reason Reason, message string, details *StatusDetails) *Status {
	return &Status{
		Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: int32(code), Reason: reason, Message: message, Details: details,
	}
}

func objectDetails(gr GroupResource, name string) *StatusDetails {
	return &StatusDetails{Name: name, Group: gr.Group, Kind: gr.Resource}
}

// Success is the Status a delete answers with when it does not return the
// deleted object.
func Success(gr GroupResource, name, uid string) *Status {
	return &Status{
		Kind: "Status", APIVersion: "v1", Status: "Success",
		Details: &StatusDetails{Name: name, Group: gr.Group, Kind: gr.Resource, UID: uid},
	}
}

// NotFound is 404: `configmaps "x" not found`.
func NotFound(gr GroupResource, name string) *Status {
	return failure(http.StatusNotFound, ReasonNotFound,
		fmt.Sprintf("%s %q not found", gr, name), objectDetails(gr, name))
}

// AlreadyExists is 409: `configmaps "x" already exists`.
func AlreadyExists(gr GroupResource, name string) *Status {
	return failure(http.StatusConflict, ReasonAlreadyExists,
		fmt.Sprintf("%s %q already exists", gr, name), objectDetails(gr, name))
}

// GenerateNameConflict is the AlreadyExists of a create whose name came
// from generateName (or that gave generateName with a name): kube asks the
// client to retry after a second.
func GenerateNameConflict(gr GroupResource, name string) *Status {
	d := objectDetails(gr, name)
	d.RetryAfterSeconds = 1
	return failure(http.StatusConflict, ReasonAlreadyExists,
		fmt.Sprintf("%s %q already exists, the server was not able to generate a unique name for the object", gr, name), d)
}

// Conflict is 409: `Operation cannot be fulfilled on configmaps "x": why`.
func Conflict(gr GroupResource, name, why string) *Status {
	return failure(http.StatusConflict, ReasonConflict,
		fmt.Sprintf("Operation cannot be fulfilled on %s %q: %s", gr, name, why), objectDetails(gr, name))
}

// ConflictModified is the Conflict of an update with a stale resourceVersion.
func ConflictModified(gr GroupResource, name string) *Status {
	return Conflict(gr, name, "the object has been modified; please apply your changes to the latest version and try again")
}

// Invalid is 422 with one cause per field error:
// `ConfigMap "x" is invalid: metadata.name: Required value`.
func Invalid(gk GroupKind, name string, errs FieldErrors) *Status {
	causes := make([]StatusCause, len(errs))
	for i, e := range errs {
		causes[i] = StatusCause{Type: e.Type.cause(), Message: e.Body(), Field: e.Field}
	}
	return failure(http.StatusUnprocessableEntity, ReasonInvalid,
		fmt.Sprintf("%s %q is invalid: %s", gk, name, errs.Error()),
		&StatusDetails{Name: name, Group: gk.Group, Kind: gk.Kind, Causes: causes})
}

// BadRequest is 400 with the given message.
func BadRequest(message string) *Status {
	return failure(http.StatusBadRequest, ReasonBadRequest, message, nil)
}

// Forbidden is 403: `configmaps "x" is forbidden: why`.
func Forbidden(gr GroupResource, name, why string) *Status {
	return failure(http.StatusForbidden, ReasonForbidden,
		fmt.Sprintf("%s %q is forbidden: %s", gr, name, why), objectDetails(gr, name))
}

// Expired is 410 Expired, the answer for a resourceVersion or continue
// token older than the history kept.
func Expired(message string) *Status {
	return failure(http.StatusGone, ReasonExpired, message, nil)
}

// MethodNotSupported is 405: `create is not supported on resources of kind "x"`.
func MethodNotSupported(gr GroupResource, verb string) *Status {
	return failure(http.StatusMethodNotAllowed, ReasonMethodNotAllowed,
		fmt.Sprintf("%s is not supported on resources of kind %q", verb, gr),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource})
}

// NotAcceptable is 406, listing the media types the server can produce.
func NotAcceptable(accepted []string) *Status {
	return failure(http.StatusNotAcceptable, ReasonNotAcceptable,
		fmt.Sprintf("only the following media types are accepted: %s", strings.Join(accepted, ", ")), nil)
}

// NoAcceptableRepresentation is the 406 kube-apiserver sends on resource
// paths, listing the representations it could have sent.
func NoAcceptableRepresentation(available []string) *Status {
	return failure(http.StatusNotAcceptable, ReasonNotAcceptable,
		"406: Not Acceptable\n\nAvailable representations: "+strings.Join(available, ", "), &StatusDetails{})
}

// UnsupportedPatchType is the 415 for a PATCH whose Content-Type is not a
// patch type the resource accepts.
func UnsupportedPatchType() *Status {
	return failure(http.StatusUnsupportedMediaType, ReasonUnsupportedMediaType, "415: Unsupported Media Type", &StatusDetails{})
}

// UnsupportedMediaType is 415 for a request body in an unknown format.
func UnsupportedMediaType(contentType string, accepted []string) *Status {
	return failure(http.StatusUnsupportedMediaType, ReasonUnsupportedMediaType,
		fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: %s",
			strings.Join(accepted, ", ")), nil)
}

// RequestEntityTooLarge is 413 for a body over the limit.
func RequestEntityTooLarge(limit int64) *Status {
	return failure(http.StatusRequestEntityTooLarge, ReasonRequestEntityTooLarge,
		fmt.Sprintf("Request entity too large: limit is %d", limit), nil)
}

// TooManyRequests is 429 asking the client to retry after some seconds.
func TooManyRequests(message string, retryAfterSeconds int) *Status {
	return failure(http.StatusTooManyRequests, ReasonTooManyRequests, message,
		&StatusDetails{RetryAfterSeconds: int32(retryAfterSeconds)})
}

// Timeout is 504 asking the client to retry after some seconds.
func Timeout(message string, retryAfterSeconds int) *Status {
	return failure(http.StatusGatewayTimeout, ReasonTimeout, "Timeout: "+message,
		&StatusDetails{RetryAfterSeconds: int32(retryAfterSeconds)})
}

// TooLargeResourceVersion is the 504 for a resourceVersion newer than the
// store has reached after waiting.
func TooLargeResourceVersion(requested, current int64, retryAfterSeconds int) *Status {
	st := failure(http.StatusGatewayTimeout, ReasonTimeout,
		fmt.Sprintf("Timeout: Too large resource version: %d, current: %d", requested, current),
		&StatusDetails{
			RetryAfterSeconds: int32(retryAfterSeconds),
			Causes:            []StatusCause{{Type: CauseResourceVersionTooLarge, Message: "Too large resource version"}},
		})
	return st
}

// Internal is 500 for a failure that is the server's fault.
func Internal(err error) *Status {
	return failure(http.StatusInternalServerError, ReasonInternalError,
		fmt.Sprintf("Internal error occurred: %v", err),
		&StatusDetails{Causes: []StatusCause{{Message: err.Error()}}})
}

// ServiceUnavailable is 503.
func ServiceUnavailable(message string) *Status {
	return failure(http.StatusServiceUnavailable, ReasonServiceUnavailable, message, nil)
}

// AsStatus returns the Status carried by err (through any wrapping), or a
// 500 Internal Status describing err.
func AsStatus(err error) *Status {
	var st *Status
	if errors.As(err, &st) {
		return st
	}
	return Internal(err)
}

// ReasonOf returns the reason of the Status carried by err, "" if none.
func ReasonOf(err error) Reason {
	var st *Status
	if errors.As(err, &st) {
		return st.Reason
	}
	return ""
}

// IsNotFound reports whether err is a NotFound Status.
func IsNotFound(err error) bool { return ReasonOf(err) == ReasonNotFound }

// IsAlreadyExists reports whether err is an AlreadyExists Status.
func IsAlreadyExists(err error) bool { return ReasonOf(err) == ReasonAlreadyExists }

// IsConflict reports whether err is a Conflict Status.
func IsConflict(err error) bool { return ReasonOf(err) == ReasonConflict }

// IsInvalid reports whether err is an Invalid Status.
func IsInvalid(err error) bool { return ReasonOf(err) == ReasonInvalid }

// ErrorType is the kind of a FieldError.
type ErrorType int

// Field error types, each with kube-apiserver's wording and cause.
const (
	ErrorNotFound ErrorType = iota
	ErrorRequired
	ErrorDuplicate
	ErrorInvalid
	ErrorNotSupported
	ErrorForbidden
	ErrorTooLong
	ErrorTooMany
	ErrorInternal
	ErrorTypeInvalid
)

var errorTypes = [...]struct {
	text  string
	cause CauseType
}{
	ErrorNotFound:     {"Not found", CauseFieldValueNotFound},
	ErrorRequired:     {"Required value", CauseFieldValueRequired},
	ErrorDuplicate:    {"Duplicate value", CauseFieldValueDuplicate},
	ErrorInvalid:      {"Invalid value", CauseFieldValueInvalid},
	ErrorNotSupported: {"Unsupported value", CauseFieldValueNotSupported},
	ErrorForbidden:    {"Forbidden", CauseFieldValueForbidden},
	ErrorTooLong:      {"Too long", CauseFieldValueTooLong},
	ErrorTooMany:      {"Too many", CauseFieldValueTooMany},
	ErrorInternal:     {"Internal error", CauseInternal},
	ErrorTypeInvalid:  {"Invalid value", CauseFieldValueTypeInvalid},
}

func (t ErrorType) String() string   { return errorTypes[t].text }
func (t ErrorType) cause() CauseType { return errorTypes[t].cause }

// NoValue as a FieldError's Value leaves the value out of the message.
var NoValue = noValue{}

type noValue struct{}

// FieldError is one problem with one field of an object, worded like
// kube-apiserver's field errors:
// `metadata.name: Invalid value: "A": must be lower case`.
type FieldError struct {
	Type   ErrorType
	Field  string
	Value  any
	Detail string
}

// Body is the message without the field path.
func (e FieldError) Body() string {
	var s string
	switch {
	case e.Type == ErrorRequired || e.Type == ErrorForbidden || e.Type == ErrorTooLong ||
		e.Type == ErrorInternal || e.Value == NoValue:
		s = e.Type.String()
	default:
		s = e.Type.String() + ": " + formatBadValue(e.Value)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func formatBadValue(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", t)
	case int, int32, int64, float32, float64, bool:
		return fmt.Sprint(t)
	case StyledValue:
		return t.FormatValue(GoValues)
	case fmt.Stringer:
		return t.String()
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		return formatBadValue(rv.Elem().Interface())
	}
	return fmt.Sprintf("%#v", v)
}

// ValueStyle is how a field error prints its value: kube changed it in
// 1.34 (apimachinery 0.34).
type ValueStyle uint8

const (
	// GoValues is kube 1.33's and earlier releases': a string quoted, a
	// number or boolean as is, nil (or a nil pointer) as null, a pointer
	// as what it points to, a fmt.Stringer as its String(), anything else
	// in Go syntax (%#v). FieldError.Body prints this way.
	GoValues ValueStyle = iota
	// JSONValues is kube 1.34's and later releases': a string quoted (as
	// Go quotes it), an int64, int32, float or boolean as is, anything
	// else as its JSON (encoding/json, so a map's keys sorted and <, >, &
	// escaped), a value JSON cannot encode as its String() or Go syntax.
	JSONValues
)

// StyledValue is a field error's value that stands for a Go value of
// kube's (a typed struct, a resource.Quantity, a []byte): it prints in
// each style as kube prints that Go value.
type StyledValue interface {
	FormatValue(ValueStyle) string
}

// formattedValue is a value already printed in a style.
type formattedValue string

func (v formattedValue) String() string { return string(v) }

func formatBadValueAs(style ValueStyle, v any) string {
	if style == GoValues {
		return formatBadValue(v)
	}
	switch t := v.(type) {
	case string:
		return fmt.Sprintf("%q", t)
	case int64, int32, float32, float64, bool:
		return fmt.Sprint(t)
	case formattedValue:
		return string(t)
	case StyledValue:
		return t.FormatValue(style)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// InStyle returns errs with their values printed in style s: the errors'
// messages (Body, Error, Invalid's causes) then read as kube's releases
// of that style print them. GoValues returns errs.
func (errs FieldErrors) InStyle(s ValueStyle) FieldErrors {
	if s == GoValues || len(errs) == 0 {
		return errs
	}
	out := make(FieldErrors, len(errs))
	for i, e := range errs {
		if e.Value != NoValue && e.Type != ErrorRequired && e.Type != ErrorForbidden && e.Type != ErrorTooLong && e.Type != ErrorInternal {
			e.Value = formattedValue(formatBadValueAs(s, e.Value))
		}
		out[i] = e
	}
	return out
}

// Error is "field: body".
func (e FieldError) Error() string { return e.Field + ": " + e.Body() }

// FieldErrors is a list of field errors; its message joins them the way
// kube-apiserver does ("[a, b]" for more than one), each distinct message
// once (kube's validation can report one problem twice, as causes, and its
// aggregate message drops the repeats).
type FieldErrors []FieldError

func (errs FieldErrors) Error() string {
	parts := make([]string, 0, len(errs))
	seen := make(map[string]bool, len(errs))
	for _, e := range errs {
		if msg := e.Error(); !seen[msg] {
			seen[msg] = true
			parts = append(parts, msg)
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// InvalidField is a one-cause Invalid Status for a request option, such as
// kube-apiserver's answer to `dryRun=Some`.
func InvalidField(gk GroupKind, name string, e FieldError) *Status {
	return Invalid(gk, name, FieldErrors{e})
}
