//! jumpnet host library: every CLI subcommand is a function here that returns data.
