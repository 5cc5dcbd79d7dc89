package apiserver

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// continueToken is the opaque `continue` value of a paged list: the
// snapshot revision of the first page, the key (relative to the
// collection's prefix) the next page starts at, and how many items earlier
// pages returned, so remainingItemCount needs no counting walk.
type continueToken struct {
	Version  string `json:"v"`
	Revision int64  `json:"rv"`
	Start    string `json:"start"`
	Offset   int64  `json:"n,omitempty"`
}

const continueTokenVersion = "meta.k8s.io/v1"

func (t continueToken) encode() string {
	t.Version = continueTokenVersion
	b, _ := json.Marshal(t)
	return base64.RawURLEncoding.EncodeToString(b)
}

var errInvalidContinue = errors.New("continue key is not valid")

// decodeContinueToken validates a client's continue value. The start key
// must stay inside the collection: no leading '/', no '..' escapes.
func decodeContinueToken(s string) (*continueToken, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errInvalidContinue, err)
	}
	var t continueToken
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("%w: %v", errInvalidContinue, err)
	}
	if t.Version != continueTokenVersion || t.Offset < 0 {
		return nil, errInvalidContinue
	}
	if t.Start == "" || strings.HasPrefix(t.Start, "/") {
		return nil, errInvalidContinue
	}
	for _, segment := range strings.Split(strings.TrimSuffix(t.Start, "\x00"), "/") {
		if segment == "" || segment == "." || segment == ".." {
			return nil, errInvalidContinue
		}
	}
	return &t, nil
}

// expiredContinue turns the failure of a continued list into kube's 410:
// the client gets a token that continues from the same key at the newest
// revision, accepting an inconsistent list, or may restart.
func expiredContinue(err error, res *Resource, t *continueToken, prefix string) error {
	var expired *store.ExpiredError
	if !errors.As(err, &expired) {
		return storeError(err, res.GroupResource(), "")
	}
	st := meta.Expired("The provided continue parameter is too old to display a consistent list result. " +
		"You can start a new list without the continue parameter, or use the continue token in this response " +
		"to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent " +
		"list - objects that were created, modified, or deleted between the time the first chunk was returned " +
		"and now may show up in the list.")
	st.Metadata.Continue = continueToken{Revision: -1, Start: t.Start, Offset: t.Offset}.encode()
	return st
}
