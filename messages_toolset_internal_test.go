package mms

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestToolsetActionTables: the action tables name exactly the toolsets'
// members, and the target table its two kinds.
func TestToolsetActionTables(t *testing.T) {
	require.Equal(t, slices.Sorted(slices.Values(computerToolsetMembers())), slices.Sorted(maps.Keys(computerActionUnion.Types())))
	require.Equal(t, slices.Sorted(slices.Values(browserToolsetMembers())), slices.Sorted(maps.Keys(browserActionUnion.Types())))
	require.Equal(t, []string{"coordinate", "ref"}, slices.Sorted(maps.Keys(browserTargetUnion.Types())))
	require.Len(t, computerActionNames, len(computerToolsetMembers()))
	require.Len(t, browserActionNames, len(browserToolsetMembers()))
}

func TestBrowserTargetUnion(t *testing.T) {
	testUnion(t, browserTargetUnion.Decode, []unionCase[BrowserTarget]{
		{"coordinate", BrowserCoordinateTarget{X: 1.5, Y: 2, Extra: future}},
		{"coordinate", BrowserCoordinateTarget{}},
		{"ref", BrowserRefTarget{Ref: "ref_1"}},
	})
}
