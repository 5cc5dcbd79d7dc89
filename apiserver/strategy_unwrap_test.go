package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kapi-dev/kapi/meta"
)

type gracefulTestStrategy struct{ GenericStrategy }

func (gracefulTestStrategy) GracePeriod(*Write, meta.Object, *int64) int64 { return 7 }

type wrappingTestStrategy struct{ Strategy }

func (w wrappingTestStrategy) Unwrap() Strategy { return w.Strategy }

func TestAStrategysCapabilitiesAreFoundThroughItsWrappers(t *testing.T) {
	g, ok := strategyAs[GracefulDeleter](wrappingTestStrategy{wrappingTestStrategy{gracefulTestStrategy{}}})
	assert.True(t, ok)
	assert.Equal(t, int64(7), g.GracePeriod(nil, nil, nil))
	_, ok = strategyAs[Allocator](wrappingTestStrategy{gracefulTestStrategy{}})
	assert.False(t, ok)
	_, ok = strategyAs[GracefulDeleter](GenericStrategy{})
	assert.False(t, ok)
}
