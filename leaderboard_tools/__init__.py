"""The site's tooling beside the plugin: the atomic build (runner and its parts), the preview server, release checks and the pages branch."""
