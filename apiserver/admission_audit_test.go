package apiserver_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kapi-dev/kapi/apiserver"
)

func TestAuditAnnotationsAreCollectedThroughDerivedContexts(t *testing.T) {
	type key struct{}
	ctx, audit := apiserver.WithAuditAnnotations(context.WithValue(context.Background(), key{}, "parent's"))
	derived, cancel := context.WithCancel(ctx)
	defer cancel()

	apiserver.AddAuditAnnotation(derived, "a/b", "first")
	apiserver.AddAuditAnnotation(derived, "a/b", "second")
	assert.Equal(t, map[string]string{"a/b": "first"}, audit.Map(), "a key keeps its first value")
	assert.Equal(t, "parent's", ctx.Value(key{}), "the parent's values are still found")
}

func TestAddAuditAnnotationWithoutASinkDoesNothing(t *testing.T) {
	assert.NotPanics(t, func() { apiserver.AddAuditAnnotation(context.Background(), "a/b", "c") })
}
