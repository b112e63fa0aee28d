package mms

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/option"
)

// secretCanary is the value every secret holds in TestNoVerbShowsASecret.
const secretCanary = "canary-SeCrEt-7f3a"

// secretHolders returns a value of every exported type that can hold a
// Secret, each with the canary in it (TestSecretHoldersListed keeps the
// list complete).
func secretHolders() []any {
	s := NewSecret(secretCanary)
	return []any{
		s, &s, option.Token{AccessToken: s}, &option.Token{AccessToken: s},
		Set(s),
		GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: s},
		SessionCreateParams{Agent: SessionAgentID("a"), Resources: []SessionResourceParams{GitHubRepositoryResourceParams{AuthorizationToken: s}}},
		SessionResourceUpdateParams{AuthorizationToken: s},
		DeploymentCreateParams{Agent: SessionAgentID("a"), Resources: []SessionResourceParams{GitHubRepositoryResourceParams{AuthorizationToken: s}}},
		DeploymentUpdateParams{Resources: Set([]SessionResourceParams{GitHubRepositoryResourceParams{AuthorizationToken: s}})},
		Work{Secret: &s}, WorkSecret{SessionsToken: s},
		TunnelToken{ID: "t", TunnelToken: s},
		MCPOAuthAuthParams{AccessToken: s, Refresh: MCPOAuthRefreshParams{RefreshToken: s, TokenEndpointAuth: TokenEndpointAuthClientSecretBasic{ClientSecret: s}}},
		MCPOAuthRefreshParams{RefreshToken: s},
		StaticBearerAuthParams{Token: s},
		EnvironmentVariableAuthParams{SecretValue: s},
		MCPOAuthAuthUpdateParams{AccessToken: s, Refresh: Set(MCPOAuthRefreshUpdateParams{RefreshToken: s})},
		MCPOAuthRefreshUpdateParams{RefreshToken: s, TokenEndpointAuth: TokenEndpointAuthClientSecretPost{ClientSecret: s}},
		StaticBearerAuthUpdateParams{Token: s},
		EnvironmentVariableAuthUpdateParams{SecretValue: s},
		TokenEndpointAuthClientSecretBasic{ClientSecret: s},
		TokenEndpointAuthClientSecretPost{ClientSecret: s},
		VaultCredentialCreateParams{Auth: StaticBearerAuthParams{Token: s}},
		VaultCredentialUpdateParams{Auth: StaticBearerAuthUpdateParams{Token: s}},
		MCPServerDefinition{Name: "m", URL: "u", AuthorizationToken: s},
		MCPServers{{Name: "m", URL: "u", AuthorizationToken: s}},
		MessageCreateParams{Model: "m", MCPServers: MCPServers{{Name: "m", AuthorizationToken: s}}},
		MessageCountTokensParams{Model: "m", MCPServers: MCPServers{{Name: "m", AuthorizationToken: s}}},
		BatchRequest{CustomID: "c", Params: MessageCreateParams{MCPServers: MCPServers{{AuthorizationToken: s}}}},
		BatchCreateParams{Requests: []BatchRequest{{Params: MessageCreateParams{MCPServers: MCPServers{{AuthorizationToken: s}}}}}},
		BatchJobParams{},
		&BatchJob{},
		ToolRunnerParams{Params: MessageCreateParams{MCPServers: MCPServers{{AuthorizationToken: s}}}},
		&ToolRunner{},
		(&MessagesService{}).NewThread(MessageCreateParams{Model: "m", MCPServers: MCPServers{{Name: "m", AuthorizationToken: s}}}),
	}
}

// TestNoVerbShowsASecret prints every type that can hold a Secret, as a
// value and behind a pointer, with every fmt verb (%p and %w included,
// whose bad-verb path calls no method) and both slog handlers: the canary
// never shows, raw or hex-encoded.
func TestNoVerbShowsASecret(t *testing.T) {
	leaks := func(s string) bool {
		return strings.Contains(s, secretCanary) || strings.Contains(s, fmt.Sprintf("%x", secretCanary)) ||
			strings.Contains(s, fmt.Sprintf("%X", secretCanary))
	}
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%p", "%w", "%d", "%10.3s", "%T"}
	for _, v := range secretHolders() {
		ptr := v
		if reflect.TypeOf(v).Kind() != reflect.Pointer { // a *T, for each T
			p := reflect.New(reflect.TypeOf(v))
			p.Elem().Set(reflect.ValueOf(v))
			ptr = p.Interface()
		}
		for _, x := range []any{v, ptr, []any{v}, map[string]any{"k": ptr}, struct{ P any }{ptr}} {
			for _, verb := range verbs {
				if got := fmt.Sprintf(verb, x); leaks(got) {
					t.Errorf("Sprintf(%s) of %T shows the secret: %s", verb, x, got)
				}
				if got := fmt.Errorf(verb, x).Error(); leaks(got) {
					t.Errorf("Errorf(%s) of %T shows the secret: %s", verb, x, got)
				}
			}
		}
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("m", "v", v, "p", ptr)
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("m", "v", v, "p", ptr)
		if leaks(buf.String()) {
			t.Errorf("slog shows the secret of %T: %s", v, buf.String())
		}
	}
	if err := fmt.Errorf("wrap %w", errors.New("x")); err.Error() != "wrap x" {
		t.Fatal(err)
	}
}

// TestSecretHoldersListed finds, in the package's source, every exported
// type that can reach a Secret (through its fields, named types and union
// variants) and checks that secretHolders lists it.
func TestSecretHoldersListed(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]ast.Expr{}
	methods := map[string][]string{} // method name → receiver type names
	for _, f := range pkgs["mms"].Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						types[ts.Name.Name] = ts.Type
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil {
					methods[d.Name.Name] = append(methods[d.Name.Name], recvTypeName(d.Recv.List[0].Type))
				}
			}
		}
	}
	holds := map[string]bool{"Secret": true}
	for changed := true; changed; {
		changed = false
		for name, expr := range types {
			if holds[name] {
				continue
			}
			hit := false
			mentions := func(e ast.Expr) {
				ast.Inspect(e, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.SelectorExpr, *ast.FuncType: // another package's; a func's signature
						return false
					case *ast.Ident:
						hit = hit || holds[n.Name]
					}
					return !hit
				})
			}
			switch e := expr.(type) {
			case *ast.StructType:
				for _, f := range e.Fields.List {
					mentions(f.Type)
				}
			case *ast.InterfaceType: // a union: its variants, by marker method
				for _, m := range e.Methods.List {
					for _, mn := range m.Names {
						if strings.HasPrefix(mn.Name, "is") && !mn.IsExported() {
							for _, r := range methods[mn.Name] {
								hit = hit || holds[r]
							}
						}
					}
				}
			case *ast.FuncType:
			default:
				mentions(e)
			}
			if hit {
				holds[name], changed = true, true
			}
		}
	}
	listed := map[string]bool{}
	for _, v := range secretHolders() {
		tt := reflect.TypeOf(v)
		if tt.Kind() == reflect.Pointer {
			tt = tt.Elem()
		}
		name, _, _ := strings.Cut(tt.Name(), "[")
		listed[name] = true
	}
	var missing []string
	for name := range holds {
		if ast.IsExported(name) && !listed[name] {
			if _, iface := types[name].(*ast.InterfaceType); !iface { // printed through their variants
				missing = append(missing, name)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("types that can hold a Secret are not in secretHolders: %v", missing)
	}

}

func recvTypeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvTypeName(e.X)
	case *ast.IndexExpr:
		return recvTypeName(e.X)
	case *ast.IndexListExpr:
		return recvTypeName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}
