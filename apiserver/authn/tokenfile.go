package authn

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// StaticTokens authenticates bearer tokens listed in kube-apiserver's
// --token-auth-file format: one CSV record per token,
//
//	token,user,uid,"group1,group2"
//
// with at least the first three columns. Lookups take the same time
// whatever the token: the table is keyed by the SHA-256 of each token and
// the token found is compared in constant time, so response times say
// nothing about how much of a guess was right.
type StaticTokens struct {
	byHash map[[sha256.Size]byte]staticToken
}

type staticToken struct {
	token []byte
	user  User
}

// LoadTokenFile reads a token file (see StaticTokens).
func LoadTokenFile(path string) (*StaticTokens, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ParseTokenFile(f)
	if err != nil {
		return nil, fmt.Errorf("token file %q: %w", path, err)
	}
	return t, nil
}

// ParseTokenFile reads records as kube does: an empty token is skipped, a
// token listed twice keeps its last record, the fourth column is split on
// commas into groups. Errors name the record, never its content.
func ParseTokenFile(r io.Reader) (*StaticTokens, error) {
	reader := csv.NewReader(r)
	reader.FieldsPerRecord = -1
	t := &StaticTokens{byHash: map[[sha256.Size]byte]staticToken{}}
	for n := 1; ; n++ {
		record, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", n, err) // csv errors give a line and column, never content
		}
		if len(record) < 3 {
			return nil, fmt.Errorf("record %d: must have at least 3 columns (token, user name, user uid), found %d", n, len(record))
		}
		if record[0] == "" {
			continue
		}
		u := User{Name: record[1], UID: record[2]}
		if len(record) >= 4 {
			u.Groups = strings.Split(record[3], ",")
		}
		t.Add(record[0], u)
	}
}

// Add adds (or replaces) one token.
func (t *StaticTokens) Add(token string, u User) {
	if t.byHash == nil {
		t.byHash = map[[sha256.Size]byte]staticToken{}
	}
	t.byHash[sha256.Sum256([]byte(token))] = staticToken{token: []byte(token), user: u}
}

// Len is the number of tokens.
func (t *StaticTokens) Len() int { return len(t.byHash) }

// AuthenticateToken implements TokenAuthenticator: a listed token is its
// user; any other is not this authenticator's (ok false, no error).
func (t *StaticTokens) AuthenticateToken(_ context.Context, token string) (*Response, bool, error) {
	e, found := t.byHash[sha256.Sum256([]byte(token))]
	if !found || subtle.ConstantTimeCompare(e.token, []byte(token)) != 1 {
		return nil, false, nil
	}
	u := e.user
	u.Groups = append([]string(nil), u.Groups...)
	return &Response{User: &u}, true, nil
}
