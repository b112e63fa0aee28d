package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// TestSkillsGAShape: under API version 2026-10-21 the Skills calls send no
// beta and the fake answers the GA shape, which decodes (display_name,
// latest_version_id, source object, versions addressed by id) and encodes
// back as it came.
func TestSkillsGAShape(t *testing.T) {
	ctx := context.Background()
	srv := newFilesServer(t)
	c := filesClient(t, srv, option.WithVersion(mms.APIVersion20261021))
	k, err := c.Skills.Create(ctx, mms.SkillCreateParams{DisplayName: "PDF tools", Files: skillFiles(t, "a")})
	require.NoError(t, err)
	assert.Equal(t, "PDF tools", k.DisplayName)
	assert.Equal(t, mms.SkillSourceCustom, k.Source)
	assert.True(t, k.SourceObject)
	assert.Nil(t, k.DisplayTitle)
	assert.Nil(t, k.LatestVersion)
	require.NotEmpty(t, k.LatestVersionID)

	v, err := c.Skills.Versions.Create(ctx, k.ID, mms.SkillVersionCreateParams{Files: skillFiles(t, "a")})
	require.NoError(t, err)
	assert.Empty(t, v.Version, "the GA shape has no version string")
	assert.Empty(t, v.Directory)
	got, err := c.Skills.Versions.Get(ctx, k.ID, v.ID)
	require.NoError(t, err)
	assert.Equal(t, v.ID, got.ID)
	k2, err := c.Skills.Get(ctx, k.ID)
	require.NoError(t, err)
	assert.Equal(t, v.ID, k2.LatestVersionID)
	del, err := c.Skills.Versions.Delete(ctx, k.ID, v.ID)
	require.NoError(t, err)
	assert.Equal(t, v.ID, del.ID)
	_, err = c.Skills.Delete(ctx, k.ID)
	require.NoError(t, err)

	reqs := srv.Requests()
	require.Len(t, reqs, 6)
	for _, r := range reqs {
		assert.Empty(t, r.Header.Get(wire.HeaderBeta), "%s %s", r.Method, r.Path)
		assert.Equal(t, "2026-10-21", r.Header.Get(wire.HeaderVersion))
	}
	// What the service sent is what the record writes back.
	out, err := json.Marshal(k2)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"source":{"type":"custom"}`)
	assert.NotContains(t, string(out), "display_title")
}

// TestSkillsCreateLabelField: each shape has its label field; the other is
// refused before sending.
func TestSkillsCreateLabelField(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		opts  []option.RequestOption
		p     mms.SkillCreateParams
		field string // "" accepted
	}{
		{"beta: title", nil, mms.SkillCreateParams{DisplayTitle: "t"}, ""},
		{"beta: name refused", nil, mms.SkillCreateParams{DisplayName: "n"}, "display_name"},
		{"GA: name", []option.RequestOption{option.WithVersion(mms.APIVersion20261021)}, mms.SkillCreateParams{DisplayName: "n"}, ""},
		{"GA: title refused", []option.RequestOption{option.WithVersion(mms.APIVersion20261021)}, mms.SkillCreateParams{DisplayTitle: "t"}, "display_title"},
		{"GA with the beta back: title", []option.RequestOption{option.WithVersion(mms.APIVersion20261021), option.WithBeta(mms.BetaSkills)},
			mms.SkillCreateParams{DisplayTitle: "t"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFilesServer(t)
			c := filesClient(t, srv, tt.opts...)
			tt.p.Files = skillFiles(t, "a")
			k, err := c.Skills.Create(ctx, tt.p)
			if tt.field == "" {
				require.NoError(t, err)
				assert.True(t, k.DisplayName == "n" || k.DisplayTitle != nil && *k.DisplayTitle == "t", "%+v", k)
				return
			}
			var ve *mms.ValidationError
			require.True(t, errors.As(err, &ve), "%v", err)
			assert.Equal(t, tt.field, ve.Field)
			assert.Empty(t, srv.Requests())
		})
	}
}

// TestSkillGARecordsRoundTrip: the GA records decode and encode back
// unchanged; the beta shape still does.
func TestSkillGARecordsRoundTrip(t *testing.T) {
	k := roundTrip[mms.Skill](t, []byte(`{"type":"skill","id":"skill_1","display_name":"PDF","latest_version_id":"skver_2",`+
		`"source":{"type":"vendor_example"},"created_at":"2026-10-02T00:00:00Z","updated_at":"2026-10-03T00:00:00Z"}`))
	assert.Equal(t, mms.SkillSourceVendorExample, k.Source)
	assert.Equal(t, "skver_2", k.LatestVersionID)
	assert.Empty(t, k.Extra)
	v := roundTrip[mms.SkillVersion](t, []byte(`{"type":"skill_version","id":"skver_2","skill_id":"skill_1","name":"pdf",`+
		`"description":"d","created_at":"2026-10-02T00:00:00Z"}`))
	assert.Equal(t, "skver_2", v.ID)
	b := roundTrip[mms.Skill](t, []byte(`{"type":"skill","id":"skill_1","display_title":"t","latest_version":"17",`+
		`"source":"custom","created_at":"2025-10-02T00:00:00Z","updated_at":"2025-10-03T00:00:00Z"}`))
	assert.False(t, b.SourceObject)
}

// TestFilesGANoBeta: under API version 2026-10-21 the Files calls send no
// beta and work against the fake as before.
func TestFilesGANoBeta(t *testing.T) {
	ctx := context.Background()
	srv := newFilesServer(t)
	c := filesClient(t, srv, option.WithVersion(mms.APIVersion20261021))
	f, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "a.txt", Reader: strings.NewReader("hello")})
	require.NoError(t, err)
	_, err = c.Files.Get(ctx, f.ID)
	require.NoError(t, err)
	page, err := c.Files.ListPage(ctx, mms.FileListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	_, err = c.Files.Delete(ctx, f.ID)
	require.NoError(t, err)
	for _, r := range srv.Requests() {
		assert.Empty(t, r.Header.Get(wire.HeaderBeta), "%s %s", r.Method, r.Path)
	}
	// A caller's own value still goes.
	_, err = c.Files.ListPage(ctx, mms.FileListParams{}, option.WithBeta(mms.BetaFiles))
	require.NoError(t, err)
	reqs := srv.Requests()
	assert.Equal(t, mms.BetaFiles, reqs[len(reqs)-1].Header.Get(wire.HeaderBeta))
}
