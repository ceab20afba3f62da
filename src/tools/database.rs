//! `pbrain-wuzi db import FILE.lib [--rule NAME] [--db PATH]`: RenLib
//! libraries into the position database (the file `INFO usedatabase`
//! opens: `wuzi.db` in the working directory unless `--db` names another).

use crate::board::Rule;
use crate::database::{file, path_or_default, renlib};
use std::path::PathBuf;

/// `pbrain-wuzi db …`.
#[derive(clap::Subcommand, Debug)]
pub enum DbCommand {
    /// Read a RenLib .lib library into the database, and save it
    Import {
        /// The RenLib library
        #[arg(value_name = "FILE.lib")]
        library: String,
        /// The library's rule, by name or code
        #[arg(long, default_value = "renju", value_parser = super::cli::parse_rule)]
        rule: Rule,
        /// The database file (default: wuzi.db in the working directory)
        #[arg(long = "db", value_name = "PATH")]
        database: Option<PathBuf>,
    },
}

/// Runs a `db` subcommand.
pub fn run(command: DbCommand) -> Result<String, String> {
    let DbCommand::Import {
        library,
        rule,
        database,
    } = command;
    let database_path = path_or_default(database.as_deref());
    let bytes = std::fs::read(&library).map_err(|e| format!("{library}: {e}"))?;
    let mut database = file::load(&database_path)
        .map_err(|e| format!("{}: {e}; nothing imported", database_path.display()))?;
    let stats = renlib::import(&bytes, rule, &mut database)
        .map_err(|e| format!("{library}: {e}; nothing imported"))?;
    file::save(&database, &database_path)
        .map_err(|e| format!("{}: {e}; nothing imported", database_path.display()))?;
    Ok(format!(
        "{library}: {} nodes, {} positions, {} moves skipped; {} now holds {} positions\n",
        stats.nodes,
        stats.positions,
        stats.skipped,
        database_path.display(),
        database.len()
    ))
}
