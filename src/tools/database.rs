//! `pbrain-wuzi db import FILE.lib [--rule NAME] [--db PATH]`: RenLib
//! libraries into the position database (the file `INFO usedatabase`
//! opens: `wuzi.db` in the working directory unless `--db` names another).

use crate::board::Rule;
use crate::database::{file, path_or_default, renlib};
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str =
    "usage: pbrain-wuzi db import FILE.lib [--rule freestyle|standard|renju|caro|caro-exact] [--db PATH]";

pub fn main(args: &[String]) -> ExitCode {
    super::finish(run(args))
}

fn run(args: &[String]) -> Result<String, String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(format!("{USAGE}\n"));
    }
    let [command, library, options @ ..] = args else {
        return Err(USAGE.to_string());
    };
    if command != "import" {
        return Err(USAGE.to_string());
    }
    let mut rule = Rule::Renju;
    let mut database_path = None;
    let mut rest = options.iter();
    while let Some(option) = rest.next() {
        let value = rest.next().ok_or_else(|| USAGE.to_string())?;
        match option.as_str() {
            "--rule" => rule = rule_named(value).ok_or_else(|| USAGE.to_string())?,
            "--db" => database_path = Some(Path::new(value)),
            _ => return Err(USAGE.to_string()),
        }
    }
    let database_path = path_or_default(database_path);
    let bytes = std::fs::read(library).map_err(|e| format!("{library}: {e}"))?;
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

fn rule_named(name: &str) -> Option<Rule> {
    match name {
        "freestyle" => Some(Rule::Freestyle),
        "standard" => Some(Rule::Standard),
        "renju" => Some(Rule::Renju),
        "caro" => Some(Rule::Caro),
        "caro-exact" => Some(Rule::CaroExact),
        _ => None,
    }
}
