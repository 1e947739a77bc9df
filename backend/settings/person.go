package settings

import (
	"fmt"
	"slices"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/userfile"
)

// Person is what the window gets of the person's own settings, whole: the settings
// that hold no secret. The endpoint and the git tokens, which do, are served by views
// that show a key's last four characters only (backend/uiapi).
type Person struct {
	Look Look `toml:"look" json:"look"`
}

// Look is how the window looks, whichever vault it shows.
type Look struct {
	// Theme is "auto" (follow the system), "light" or "dark".
	Theme string `toml:"theme" json:"theme"`
	// Language is "auto" (follow the system), "en" or "zh".
	Language string `toml:"language" json:"language"`
}

// The choices a Look accepts; the first of each is the default.
var (
	Themes    = []string{"auto", "light", "dark"}
	Languages = []string{"auto", "en", "zh"}
)

// DefaultPerson is the person's settings before they set any.
func DefaultPerson() Person {
	return Person{Look: Look{Theme: Themes[0], Language: Languages[0]}}
}

// Normal returns p with every value it does not know (an empty one, one a newer
// version wrote) replaced by its default.
func (p Person) Normal() Person {
	d := DefaultPerson()
	if !slices.Contains(Themes, p.Look.Theme) {
		p.Look.Theme = d.Look.Theme
	}
	if !slices.Contains(Languages, p.Look.Language) {
		p.Look.Language = d.Look.Language
	}
	return p
}

// check refuses a value no window offers.
func (p Person) check() error {
	if !slices.Contains(Themes, p.Look.Theme) {
		return fmt.Errorf("save settings: theme %q is none of %v", p.Look.Theme, Themes)
	}
	if !slices.Contains(Languages, p.Look.Language) {
		return fmt.Errorf("save settings: language %q is none of %v", p.Look.Language, Languages)
	}
	return nil
}

// LoadPerson reads the person's settings from the settings file at path (settings.toml,
// the endpoint's file): a missing file or table is the defaults. A file that does not
// parse is an error telling the person to fix or delete it.
func LoadPerson(path string) (Person, error) {
	p := DefaultPerson()
	if err := userfile.Load(path, &p); err != nil {
		return DefaultPerson(), err
	}
	return p.Normal(), nil
}

// SavePerson writes the person's settings into the settings file at path, keeping
// the endpoint's keys (and the key) as they are; the file stays 0600.
func SavePerson(path string, p Person) error {
	if err := p.check(); err != nil {
		return err
	}
	return userfile.Update(path, llm.SettingsHeader, p)
}
