package admin_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/wire"
)

func TestExternalStorage(t *testing.T) {
	s, c := fake(t)
	aws := admin.AWSStorage{AccountID: "123456789012", BucketName: "my-bucket", Region: "us-east-1"}
	st, err := c.ExternalStorage.Register(ctx, admin.ExternalStorageRegisterParams{ProviderConfig: aws, DisplayName: "main"})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(st.ID, "estrg_"), st.ID)
	assert.Equal(t, aws, st.ProviderConfig)
	assert.IsType(t, admin.StoragePendingConfiguration{}, st.Status)
	assert.Equal(t, wire.BetaExternalStorage, betaOf(t, s))
	gcp, err := c.ExternalStorage.Register(ctx, admin.ExternalStorageRegisterParams{
		ProviderConfig: admin.GCPStorage{ProjectNumber: "42", BucketName: "gcs-bucket", Region: "europe-west4"}, UserProfileID: "uprof_1"})
	require.NoError(t, err)
	assert.Nil(t, gcp.DisplayName)

	act, err := c.ExternalStorage.Activate(ctx, st.ID)
	require.NoError(t, err)
	av, ok := act.Status.(admin.StorageAvailable)
	require.True(t, ok, "%T", act.Status)
	assert.True(t, av.Healthy)
	again, err := c.ExternalStorage.Activate(ctx, st.ID)
	require.NoError(t, err)
	assert.Equal(t, act.Status, again.Status, "activating available storage leaves it unchanged")

	renamed, err := c.ExternalStorage.Update(ctx, st.ID, admin.ExternalStorageUpdateParams{DisplayName: mms.Set("primary")})
	require.NoError(t, err)
	assert.Equal(t, "primary", *renamed.DisplayName)
	cleared, err := c.ExternalStorage.Update(ctx, st.ID, admin.ExternalStorageUpdateParams{DisplayName: mms.Clear[string]()})
	require.NoError(t, err)
	assert.Nil(t, cleared.DisplayName)

	got, err := c.ExternalStorage.Get(ctx, gcp.ID)
	require.NoError(t, err)
	assert.Equal(t, "uprof_1", *got.UserProfileID)
	require.Len(t, collect(t, c.ExternalStorage.List(ctx, admin.ExternalStorageListParams{Limit: 1})), 2)
	mine := collect(t, c.ExternalStorage.List(ctx, admin.ExternalStorageListParams{UserProfileIDs: []string{"uprof_1"}}))
	require.Len(t, mine, 1)
	assert.Equal(t, gcp.ID, mine[0].ID)

	s.Org().SetExternalStorageStatus(gcp.ID, "draining")
	_, err = c.ExternalStorage.Delete(ctx, gcp.ID)
	assert.Equal(t, 400, statusOf(err))
	dr, err := c.ExternalStorage.Get(ctx, gcp.ID)
	require.NoError(t, err)
	assert.True(t, dr.Status.(admin.StorageDraining).RemovalStarted)
	d, err := c.ExternalStorage.Delete(ctx, st.ID)
	require.NoError(t, err)
	assert.Equal(t, st.ID, d.ID)
	_, err = c.ExternalStorage.Get(ctx, st.ID)
	assert.Equal(t, 404, statusOf(err))
	assert.Equal(t, 404, rawStatus(t, s, "GET", "/v1/organizations/external_storage"))
}

func TestExternalStorageValidation(t *testing.T) {
	s, c := fake(t)
	reg := func(pc admin.StorageProvider, name string) error {
		_, err := c.ExternalStorage.Register(ctx, admin.ExternalStorageRegisterParams{ProviderConfig: pc, DisplayName: name})
		return err
	}
	aws := func(account, bucket, region string) admin.AWSStorage {
		return admin.AWSStorage{AccountID: account, BucketName: bucket, Region: region}
	}
	const acct = "123456789012"
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"no provider", "provider_config", reg(nil, "")},
		{"unknown provider", "provider_config", reg(admin.UnknownStorageProvider{Type: "azure"}, "")},
		{"account 11 digits", "provider_config.account_id", reg(aws("12345678901", "bkt", "r"), "")},
		{"account 13 digits", "provider_config.account_id", reg(aws("1234567890123", "bkt", "r"), "")},
		{"account letters", "provider_config.account_id", reg(aws("12345678901a", "bkt", "r"), "")},
		{"no bucket", "provider_config.bucket_name", reg(aws(acct, "", "r"), "")},
		{"bucket 2", "provider_config.bucket_name", reg(aws(acct, "ab", "r"), "")},
		{"bucket 64", "provider_config.bucket_name", reg(aws(acct, strings.Repeat("b", 64), "r"), "")},
		{"no region", "provider_config.region", reg(aws(acct, "bkt", ""), "")},
		{"gcp project", "provider_config.project_number", reg(admin.GCPStorage{ProjectNumber: "proj", BucketName: "bkt", Region: "r"}, "")},
		{"name 256", "display_name", reg(aws(acct, "bkt", "r"), strings.Repeat("n", 256))},
		{"update nothing", "display_name", func() error {
			_, err := c.ExternalStorage.Update(ctx, "estrg_1", admin.ExternalStorageUpdateParams{})
			return err
		}()},
		{"update name 256", "display_name", func() error {
			_, err := c.ExternalStorage.Update(ctx, "estrg_1", admin.ExternalStorageUpdateParams{DisplayName: mms.Set(strings.Repeat("n", 256))})
			return err
		}()},
		{"list limit", "limit", firstErr(c.ExternalStorage.List(ctx, admin.ExternalStorageListParams{Limit: 1001}))},
		{"empty profile", "user_profile_ids[0]", firstErr(c.ExternalStorage.List(ctx, admin.ExternalStorageListParams{UserProfileIDs: []string{""}}))},
		{"empty id", "external_storage_id", func() error { _, err := c.ExternalStorage.Activate(ctx, ""); return err }()},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
	require.NoError(t, reg(aws(acct, "abc", "r"), strings.Repeat("n", 255)))
	require.NoError(t, reg(aws(acct, strings.Repeat("b", 63), "r"), ""))
}
