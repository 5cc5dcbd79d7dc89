package authn

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBearerTokenOf(t *testing.T) {
	cases := []struct {
		name, header, token string
		ok                  bool
	}{
		{"a bearer token", "Bearer abc", "abc", true},
		{"the scheme in any case", "bEaReR abc", "abc", true},
		{"surrounding space trimmed", "  Bearer abc  ", "abc", true},
		{"words after the token ignored", "Bearer abc def", "abc", true},
		{"no header", "", "", false},
		{"another scheme", "Basic abc", "", false},
		{"a scheme alone", "Bearer", "", false},
		{"two spaces before the token", "Bearer  abc", "", false},
		{"a tab instead of a space", "Bearer\tabc", "", false},
		{"a scheme that only starts with bearer", "Bearerx abc", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			token, ok := BearerTokenOf(c.header)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.token, token)
		})
	}
}

func TestParseTokenFile(t *testing.T) {
	t.Run("records give users, uids and comma-separated groups", func(t *testing.T) {
		tokens, err := ParseTokenFile(strings.NewReader("t1,alice,uid-1,\"dev,qa\"\nt2,bob,uid-2\n"))
		require.NoError(t, err)
		resp, ok, err := tokens.AuthenticateToken(context.Background(), "t1")
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, &User{Name: "alice", UID: "uid-1", Groups: []string{"dev", "qa"}}, resp.User)
		resp, ok, _ = tokens.AuthenticateToken(context.Background(), "t2")
		require.True(t, ok)
		assert.Equal(t, &User{Name: "bob", UID: "uid-2"}, resp.User)
	})
	t.Run("an empty token is skipped", func(t *testing.T) {
		tokens, err := ParseTokenFile(strings.NewReader(",nobody,uid\n"))
		require.NoError(t, err)
		assert.Equal(t, 0, tokens.Len())
		_, ok, _ := tokens.AuthenticateToken(context.Background(), "")
		assert.False(t, ok)
	})
	t.Run("a token listed twice keeps its last record", func(t *testing.T) {
		tokens, err := ParseTokenFile(strings.NewReader("t,first,1\nt,second,2\n"))
		require.NoError(t, err)
		resp, ok, _ := tokens.AuthenticateToken(context.Background(), "t")
		require.True(t, ok)
		assert.Equal(t, "second", resp.User.Name)
	})
	t.Run("fewer than three columns is an error that does not show the token", func(t *testing.T) {
		_, err := ParseTokenFile(strings.NewReader("t,u,1\nsecret-token,alice\n"))
		require.Error(t, err)
		assert.Equal(t, "record 2: must have at least 3 columns (token, user name, user uid), found 2", err.Error())
		assert.NotContains(t, err.Error(), "secret-token")
	})
	t.Run("a CSV syntax error names the line, not the content", func(t *testing.T) {
		_, err := ParseTokenFile(strings.NewReader("secret\"token,u,1\n"))
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "secret")
	})
}

func TestStaticTokensRefuseNearMisses(t *testing.T) {
	tokens := &StaticTokens{}
	tokens.Add("abcdef", User{Name: "alice"})
	for _, guess := range []string{"abcde", "abcdefg", "Abcdef", "", "abcdef "} {
		_, ok, err := tokens.AuthenticateToken(context.Background(), guess)
		assert.False(t, ok, guess)
		assert.NoError(t, err, guess)
	}
}

func TestStaticTokensReturnCopies(t *testing.T) {
	tokens := &StaticTokens{}
	tokens.Add("t", User{Name: "alice", Groups: []string{"dev"}})
	resp, _, _ := tokens.AuthenticateToken(context.Background(), "t")
	resp.User.Groups[0] = "changed"
	resp, _, _ = tokens.AuthenticateToken(context.Background(), "t")
	assert.Equal(t, []string{"dev"}, resp.User.Groups)
}

func request(header string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/api/v1/namespaces", nil)
	if header != "" {
		r.Header.Set("Authorization", header)
	}
	return r
}

func staticChain(anonymous bool) Authenticator {
	tokens := &StaticTokens{}
	tokens.Add("alice-token", User{Name: "alice", UID: "a1", Groups: []string{"dev"}})
	tokens.Add("carol-token", User{Name: "carol", Groups: []string{AllAuthenticated}})
	tokens.Add("anon-token", User{Name: Anonymous})
	return New(anonymous, BearerToken(tokens))
}

func TestChain(t *testing.T) {
	cases := []struct {
		name      string
		anonymous bool
		header    string
		want      *User
		err       string
	}{
		{"a known token is its user, in system:authenticated", false, "Bearer alice-token", &User{Name: "alice", UID: "a1", Groups: []string{"dev", AllAuthenticated}}, ""},
		{"system:authenticated is not added twice", false, "Bearer carol-token", &User{Name: "carol", Groups: []string{AllAuthenticated}}, ""},
		{"a token for system:anonymous gets no group", false, "Bearer anon-token", &User{Name: Anonymous}, ""},
		{"no credential without anonymous access is not authenticated", false, "", nil, ""},
		{"no credential with anonymous access is system:anonymous", true, "", &User{Name: Anonymous, Groups: []string{AllUnauthenticated}}, ""},
		{"an unknown scheme with anonymous access is system:anonymous", true, "Basic Zm9vOmJhcg==", &User{Name: Anonymous, Groups: []string{AllUnauthenticated}}, ""},
		{"an unknown token is refused even with anonymous access", true, "Bearer nope", nil, "invalid bearer token"},
		{"an unknown token is refused", false, "Bearer nope", nil, "invalid bearer token"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, ok, err := staticChain(c.anonymous).AuthenticateRequest(request(c.header))
			if c.err != "" {
				require.EqualError(t, err, c.err)
				assert.False(t, ok)
				return
			}
			require.NoError(t, err)
			if c.want == nil {
				assert.False(t, ok)
				return
			}
			require.True(t, ok)
			assert.Equal(t, c.want, resp.User)
		})
	}
}

func TestUnionReportsEveryFailureOnce(t *testing.T) {
	fail := func(msg string) Authenticator {
		return AuthenticatorFunc(func(*http.Request) (*Response, bool, error) { return nil, false, errors.New(msg) })
	}
	_, ok, err := Union(fail("a"), fail("b"), fail("a")).AuthenticateRequest(request(""))
	assert.False(t, ok)
	assert.EqualError(t, err, "[a, b]")
}

func serve(a Authenticator, r *http.Request) (*httptest.ResponseRecorder, *User) {
	var seen *User
	h := Filter(a, nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen, _ = UserFrom(r.Context())
		if r.Header.Get("Authorization") != "" {
			w.Header().Set("X-Leaked", "yes")
		}
	}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w, seen
}

func TestFilter(t *testing.T) {
	const unauthorized = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}` + "\n"
	t.Run("an authenticated request goes on with its user and without its token", func(t *testing.T) {
		w, u := serve(staticChain(false), request("Bearer alice-token"))
		assert.Equal(t, http.StatusOK, w.Code)
		require.NotNil(t, u)
		assert.Equal(t, "alice", u.Name)
		assert.Empty(t, w.Header().Get("X-Leaked"))
	})
	for _, header := range []string{"", "Bearer nope", "Basic abc", "Bearer", "bearer ", strings.Repeat("x", 1<<20)} {
		t.Run("a request it cannot authenticate gets kube's 401 ("+trim(header)+")", func(t *testing.T) {
			w, u := serve(staticChain(false), request(header))
			assert.Nil(t, u)
			assert.Equal(t, http.StatusUnauthorized, w.Code)
			assert.Equal(t, unauthorized, w.Body.String())
			assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
			assert.Empty(t, w.Header().Get("X-Content-Type-Options"))
		})
	}
	t.Run("an extra space before the token gets kube's warning with the 401", func(t *testing.T) {
		w, _ := serve(staticChain(false), request("Bearer  alice-token"))
		assert.Equal(t, http.StatusUnauthorized, w.Code)
		assert.Equal(t, `299 - "the provided Authorization header contains extra space before the bearer token, and is ignored"`, w.Header().Get("Warning"))
	})
}

func trim(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

func TestAudienceAgnosticTokens(t *testing.T) {
	tokens := &StaticTokens{}
	tokens.Add("t", User{Name: "alice"})
	a := AudienceAgnostic([]string{"api"}, tokens)
	resp, ok, err := a.AuthenticateToken(context.Background(), "t")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"api"}, resp.Audiences)
	_, ok, err = a.AuthenticateToken(WithAudiences(context.Background(), []string{"other"}), "t")
	assert.NoError(t, err)
	assert.False(t, ok, "a static token is not valid for another audience")
}
