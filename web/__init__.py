"""The HTML pages, through selectors (and services) only; assets served by the app itself."""
