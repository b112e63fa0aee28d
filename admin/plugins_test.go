package admin_test

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// pluginFiles is a plugin's files: its manifest and one skill.
func pluginFiles(name, version string) []admin.PluginFile {
	return []admin.PluginFile{
		{Path: ".claude-plugin/plugin.json", Reader: strings.NewReader(`{"name":"` + name + `","version":"` + version + `","description":"d"}`)},
		{Path: "skills/hello/SKILL.md", Reader: strings.NewReader("# hello"), ContentType: "text/markdown"},
	}
}

func TestPlugins(t *testing.T) {
	s, c := fake(t)
	manual := s.Org().AddPluginMarketplace("internal", "manual")
	p, err := c.Plugins.Create(ctx, admin.PluginCreateParams{Files: pluginFiles("hello-tools", "1.0.0"), MarketplaceID: manual, ReleaseNotes: "first"})
	require.NoError(t, err)
	assert.Equal(t, wire.BetaPlugins, betaOf(t, s))
	assert.Equal(t, "hello-tools", p.Name)
	assert.Equal(t, "1.0.0", *p.ManifestVersion)
	assert.Equal(t, "organization", p.Owner.Type)
	require.NotNil(t, p.LatestVersionID)
	first := *p.LatestVersionID
	assert.Contains(t, s.Requests()[0].Header.Get("Content-Type"), "multipart/form-data")

	_, err = c.Plugins.Create(ctx, admin.PluginCreateParams{Files: pluginFiles("hello-tools", "1.0.1")})
	assert.Equal(t, 409, statusOf(err), "a taken name")

	v2, err := c.Plugins.Versions.Create(ctx, p.ID, admin.PluginVersionCreateParams{Files: pluginFiles("hello-tools", "2.0.0"), ReleaseNotes: "second"})
	require.NoError(t, err)
	assert.Equal(t, "second", *v2.ReleaseNotes)
	got, err := c.Plugins.Get(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.ID, *got.ServedVersionID)
	pinned, err := c.Plugins.Pin(ctx, p.ID, admin.PluginPinParams{ServedVersionID: first})
	require.NoError(t, err)
	assert.True(t, pinned.ServedVersionPinned)
	assert.Equal(t, first, *pinned.ServedVersionID)
	v, err := c.Plugins.Versions.Get(ctx, p.ID, first)
	require.NoError(t, err)
	assert.Equal(t, "1.0.0", *v.ManifestVersion)
	require.Len(t, collect(t, c.Plugins.Versions.List(ctx, p.ID, admin.CursorListParams{Limit: 1})), 2)

	dl, err := c.Plugins.Versions.Download(ctx, p.ID, first)
	require.NoError(t, err)
	body, err := io.ReadAll(dl.Body)
	require.NoError(t, dl.Body.Close())
	require.NoError(t, err)
	assert.Equal(t, "application/zip", dl.ContentType)
	assert.Equal(t, first+".zip", dl.Filename)
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	require.NoError(t, err)
	require.Len(t, zr.File, 2)
	assert.Equal(t, ".claude-plugin/plugin.json", zr.File[0].Name)

	// Lists and filters.
	other, err := c.Plugins.Create(ctx, admin.PluginCreateParams{Files: pluginFiles("other", "1")})
	require.NoError(t, err)
	require.Len(t, collect(t, c.Plugins.List(ctx, admin.PluginListParams{Limit: 1})), 2)
	inManual := collect(t, c.Plugins.List(ctx, admin.PluginListParams{MarketplaceID: manual}))
	require.Len(t, inManual, 1)
	assert.Equal(t, p.ID, inManual[0].ID)
	assert.Empty(t, collect(t, c.Plugins.List(ctx, admin.PluginListParams{CreatedAt: admin.TimeFilter{GT: time.Now().Add(time.Hour)}})))
	assert.Len(t, collect(t, c.Plugins.List(ctx, admin.PluginListParams{CreatedAt: admin.TimeFilter{GTE: time.Now().Add(-time.Hour)}})), 2)

	// Installation settings and shares.
	set, err := c.Plugins.InstallationSettings.Set(ctx, p.ID, "organization", admin.PluginInstallationSettingParams{InstallationPreference: "required"})
	require.NoError(t, err)
	assert.Equal(t, "required", set.InstallationPreference)
	assert.JSONEq(t, `"organization"`, string(set.Target))
	_, err = c.Plugins.InstallationSettings.Set(ctx, p.ID, "rbac_group_1", admin.PluginInstallationSettingParams{InstallationPreference: "available"})
	require.NoError(t, err)
	require.Len(t, collect(t, c.Plugins.InstallationSettings.List(ctx, p.ID, admin.PluginTargetListParams{})), 2)
	require.Len(t, collect(t, c.Plugins.InstallationSettings.List(ctx, p.ID, admin.PluginTargetListParams{TargetType: "rbac_group"})), 1)
	_, err = c.Plugins.InstallationSettings.Delete(ctx, p.ID, "rbac_group_1")
	require.NoError(t, err)
	_, err = c.Plugins.InstallationSettings.Delete(ctx, p.ID, "rbac_group_1")
	assert.Equal(t, 404, statusOf(err))
	s.Org().AddPluginShare(other.ID, "user_1")
	shares := collect(t, c.Plugins.Shares.List(ctx, other.ID, admin.PluginTargetListParams{}))
	require.Len(t, shares, 1)
	assert.Equal(t, other.ID, shares[0].PluginID)

	d, err := c.Plugins.Delete(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, p.ID, d.ID)
	_, err = c.Plugins.Versions.Get(ctx, p.ID, first)
	assert.Equal(t, 404, statusOf(err))
	synced := s.Org().AddPluginMarketplace("synced", "github")
	sp, err := c.Plugins.Create(ctx, admin.PluginCreateParams{Files: pluginFiles("synced-one", "1"), MarketplaceID: synced})
	require.NoError(t, err)
	_, err = c.Plugins.Delete(ctx, sp.ID)
	assert.Equal(t, 400, statusOf(err), "only manual marketplaces' plugins")
	assert.Equal(t, 404, rawStatus(t, s, "GET", "/v1/organizations/plugins"))
}

func TestPluginMarketplaces(t *testing.T) {
	s, c := fake(t)
	id := s.Org().AddPluginMarketplace("internal", "manual")
	s.Org().AddPluginMarketplace("synced", "github")
	m, err := c.PluginMarketplaces.Get(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "internal", m.Name)
	up, err := c.PluginMarketplaces.Update(ctx, id, admin.PluginMarketplaceUpdateParams{DefaultInstallationPreference: "required"})
	require.NoError(t, err)
	assert.Equal(t, "required", up.DefaultInstallationPreference)
	require.Len(t, collect(t, c.PluginMarketplaces.List(ctx, admin.PluginMarketplaceListParams{Limit: 1})), 2)
	require.Len(t, collect(t, c.PluginMarketplaces.List(ctx, admin.PluginMarketplaceListParams{Source: "github"})), 1)

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"marketplace.json", "a/plugin.json", "b/plugin.json"} {
		f, err := zw.Create(name)
		require.NoError(t, err)
		_, _ = f.Write([]byte("{}"))
	}
	require.NoError(t, zw.Close())
	rep, err := c.PluginMarketplaces.ValidateArchive(ctx, admin.MarketplaceArchive{Filename: "m.zip", Reader: bytes.NewReader(buf.Bytes())})
	require.NoError(t, err)
	assert.True(t, rep.Valid)
	assert.Equal(t, 2, rep.TotalPluginCount)
	rep, err = c.PluginMarketplaces.ValidateArchive(ctx, admin.MarketplaceArchive{Filename: "m.zip", Reader: strings.NewReader("not a zip")})
	require.NoError(t, err, "problems are reported, not refused")
	assert.False(t, rep.Valid)
	assert.NotNil(t, rep.ManifestError)
	rep, err = c.PluginMarketplaces.ValidateRepository(ctx, admin.ValidateRepositoryParams{RepositoryURL: "https://github.com/acme/plugins", Ref: "v1"})
	require.NoError(t, err)
	assert.True(t, rep.Valid)
	assert.Equal(t, "v1", *rep.Ref)
	assert.Len(t, *rep.CommitSHA, 40)
}

func TestPluginValidation(t *testing.T) {
	s, c := fake(t)
	create := func(files ...admin.PluginFile) error {
		_, err := c.Plugins.Create(ctx, admin.PluginCreateParams{Files: files})
		return err
	}
	r := func() *strings.Reader { return strings.NewReader("x") }
	now := time.Now()
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"no files", "files", create()},
		{"no reader", "files[0].reader", create(admin.PluginFile{Path: "plugin.json"})},
		{"no path", "files[0].path", create(admin.PluginFile{Reader: r()})},
		{"absolute", "files[0].path", create(admin.PluginFile{Path: "/plugin.json", Reader: r()})},
		{"dot dot", "files[0].path", create(admin.PluginFile{Path: "../plugin.json", Reader: r()})},
		{"unclean", "files[0].path", create(admin.PluginFile{Path: "a//plugin.json", Reader: r()})},
		{"newline", "files[0].path", create(admin.PluginFile{Path: "a\nb", Reader: r()})},
		{"duplicate", "files[1].path", create(admin.PluginFile{Path: "a", Reader: r()}, admin.PluginFile{Path: "a", Reader: r()})},
		{"content type", "files[0].content_type", create(admin.PluginFile{Path: "a", Reader: r(), ContentType: "text/plain\r\nX: y"})},
		{"size -2", "files[0].size", create(admin.PluginFile{Path: "a", Reader: r(), Size: -2})},
		{"version no files", "files", func() error {
			_, err := c.Plugins.Versions.Create(ctx, "plugin_1", admin.PluginVersionCreateParams{})
			return err
		}()},
		{"no pin", "served_version_id", func() error { _, err := c.Plugins.Pin(ctx, "plugin_1", admin.PluginPinParams{}); return err }()},
		{"limit", "limit", firstErr(c.Plugins.List(ctx, admin.PluginListParams{Limit: 1001}))},
		{"gt and gte", "created_at.gt", firstErr(c.Plugins.List(ctx, admin.PluginListParams{CreatedAt: admin.TimeFilter{GT: now, GTE: now}}))},
		{"lt and lte", "created_at.lt", firstErr(c.Plugins.List(ctx, admin.PluginListParams{CreatedAt: admin.TimeFilter{LT: now, LTE: now}}))},
		{"upside down", "created_at", firstErr(c.Plugins.List(ctx, admin.PluginListParams{CreatedAt: admin.TimeFilter{GT: now, LT: now.Add(-time.Second)}}))},
		{"no preference", "installation_preference", func() error {
			_, err := c.Plugins.InstallationSettings.Set(ctx, "plugin_1", "organization", admin.PluginInstallationSettingParams{})
			return err
		}()},
		{"empty target", "target", func() error { _, err := c.Plugins.InstallationSettings.Delete(ctx, "plugin_1", ""); return err }()},
		{"shares limit", "limit", firstErr(c.Plugins.Shares.List(ctx, "plugin_1", admin.PluginTargetListParams{Limit: -1}))},
		{"empty version", "version", func() error { _, err := c.Plugins.Versions.Download(ctx, "plugin_1", ""); return err }()},
		{"no default", "default_installation_preference", func() error {
			_, err := c.PluginMarketplaces.Update(ctx, "mkt_1", admin.PluginMarketplaceUpdateParams{})
			return err
		}()},
		{"marketplace limit", "limit", firstErr(c.PluginMarketplaces.List(ctx, admin.PluginMarketplaceListParams{Limit: 1001}))},
		{"no archive", "archive.reader", func() error {
			_, err := c.PluginMarketplaces.ValidateArchive(ctx, admin.MarketplaceArchive{Filename: "a.zip"})
			return err
		}()},
		{"archive name", "archive.filename", func() error {
			_, err := c.PluginMarketplaces.ValidateArchive(ctx, admin.MarketplaceArchive{Filename: "dir/a.zip", Reader: r()})
			return err
		}()},
		{"no repository", "repository_url", func() error {
			_, err := c.PluginMarketplaces.ValidateRepository(ctx, admin.ValidateRepositoryParams{})
			return err
		}()},
		{"http repository", "repository_url", func() error {
			_, err := c.PluginMarketplaces.ValidateRepository(ctx, admin.ValidateRepositoryParams{RepositoryURL: "http://github.com/a/b"})
			return err
		}()},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
	// The other side: a size of -1 (unknown) and equal bounds are sent.
	_, err := c.Plugins.Create(ctx, admin.PluginCreateParams{Files: []admin.PluginFile{{Path: "plugin.json", Reader: strings.NewReader(`{"name":"ok"}`), Size: -1}}})
	require.NoError(t, err)
	require.NoError(t, firstErr(c.Plugins.List(ctx, admin.PluginListParams{Limit: 1000, CreatedAt: admin.TimeFilter{GTE: now, LTE: now}})))
}
