package build

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestWindowsVersionIsTheProgramsVersion: the Windows executable's version resource
// and the installer's name come from wails.json's info, the Makefile's VERSION (and
// the .deb's) from cli's Version: they must agree.
func TestWindowsVersionIsTheProgramsVersion(t *testing.T) {
	root := repoRoot(t)
	src, err := os.ReadFile(filepath.Join(root, "cli", "mcp.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^const Version = "(.*)"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("cli/mcp.go declares no `const Version = \"…\"` (the Makefile reads it there)")
	}
	b, err := os.ReadFile(filepath.Join(root, "wails.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Info struct {
			ProductName    string `json:"productName"`
			ProductVersion string `json:"productVersion"`
		} `json:"info"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatalf("wails.json: %v", err)
	}
	if w.Info.ProductVersion != string(m[1]) || w.Info.ProductName != "MemoTree" {
		t.Errorf("wails.json's info is %q %q, want MemoTree %q (cli.Version)", w.Info.ProductName, w.Info.ProductVersion, m[1])
	}
}

// TestInstallerAddsAStartMenuEntry reads the NSIS script the Windows installer is
// made from: a Start-menu entry with the app's icon, removed by the uninstaller, and
// the executable under its own name.
func TestInstallerAddsAStartMenuEntry(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "build", "windows", "installer", "project.nsi"))
	if err != nil {
		t.Fatal(err)
	}
	nsi := string(b)
	for _, want := range []string{
		`CreateShortcut "$SMPROGRAMS\${INFO_PRODUCTNAME}.lnk" "$INSTDIR\${PRODUCT_EXECUTABLE}"`,
		`Delete "$SMPROGRAMS\${INFO_PRODUCTNAME}.lnk"`,
		`!define MUI_ICON "..\icon.ico"`,
		`!define PRODUCT_EXECUTABLE "memotree.exe"`,
		`OutFile "..\..\bin\memotree-${INFO_PRODUCTVERSION}-windows-${ARCH}-installer.exe"`,
	} {
		if !strings.Contains(nsi, want) {
			t.Errorf("project.nsi lacks %s", want)
		}
	}
}
