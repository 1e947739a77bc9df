// Command memotree is a local-first desktop app in which a person and an LLM agent share
// one Markdown knowledge vault. See README.md.
package main

import (
	"embed"
	"os"

	"github.com/memotree/memotree/app"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() { os.Exit(app.Run(assets)) }
