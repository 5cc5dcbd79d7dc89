package authn

import (
	"context"
	"strings"
	"testing"
	"time"
)

// FuzzBearerTokenOf: any Authorization header parses without panicking;
// a token found is non-empty, holds no space and is part of the header.
func FuzzBearerTokenOf(f *testing.F) {
	for _, s := range []string{"Bearer abc", "bearer  abc", "Basic x", "Bearer", " Bearer a b ", "BEARER\ta", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		token, ok := BearerTokenOf(header)
		if !ok {
			if token != "" {
				t.Fatalf("token %q without ok", token)
			}
			return
		}
		if token == "" || strings.Contains(token, " ") || !strings.Contains(header, token) {
			t.Fatalf("header %q gave token %q", header, token)
		}
		_ = extraSpaceBeforeToken(header)
	})
}

// FuzzServiceAccountToken: any token string is refused or accepted without
// panicking, and no error quotes the token.
func FuzzServiceAccountToken(f *testing.F) {
	fx := &fixture{objs: objects{"serviceaccounts/ns1/sa1": obj("sa1", "sa-uid")}, now: t0}
	tokens, err := NewServiceAccountTokens(ServiceAccountConfig{Issuers: []string{issuer}, SigningKey: ecKey, Objects: fx.objs,
		Now: func() time.Time { return t0 }})
	if err != nil {
		f.Fatal(err)
	}
	good, _, _ := tokens.Issue(ServiceAccountToken{Namespace: "ns1", ServiceAccountName: "sa1", ServiceAccountUID: "sa-uid", Expiration: time.Hour})
	for _, s := range []string{good, good + "x", "a.b.c", "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJodHRwczovL2t1YmVybmV0ZXMuZGVmYXVsdC5zdmMuY2x1c3Rlci5sb2NhbCJ9.AAAA", "..", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, token string) {
		resp, ok, err := tokens.AuthenticateToken(context.Background(), token)
		if ok && (resp == nil || resp.User == nil) {
			t.Fatal("ok without a user")
		}
		if err != nil && len(token) > 8 && strings.Contains(err.Error(), token) {
			t.Fatalf("error %q quotes the token", err)
		}
	})
}

// FuzzParseTokenFile: any file parses or fails without panicking, and an
// error never quotes a token.
func FuzzParseTokenFile(f *testing.F) {
	for _, s := range []string{"t,u,1\n", "t,u,1,\"a,b\"\n", ",u,1\n", "t,u\n", "\"t,u,1\n", "a\"b,u,1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		_, err := ParseTokenFile(strings.NewReader(data))
		if err == nil {
			return
		}
		first, _, _ := strings.Cut(data, ",")
		if len(first) > 8 && strings.Contains(err.Error(), first) {
			t.Fatalf("error %q quotes the token", err)
		}
	})
}
