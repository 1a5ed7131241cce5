//! The schedule format of scenario files (`scenarios/*.scn`, replayed by `cargo xtask replay`),
//! written: a counterexample of the step checker becomes a file that runs it again, step by
//! step, from its loom scenario's start. The parser is racelab-props' `scenario` module.

/// An actor name as a scenario file writes it: quoted when it holds a space or a `#`.
pub fn actor_word(actor: &str) -> String {
    if actor.contains(|c: char| c.is_whitespace() || c == '#' || c == '"') {
        format!("\"{actor}\"")
    } else {
        actor.to_owned()
    }
}

/// Where report.md says a cell's counterexample file is (under `target/racelab/`); a path
/// cell's ([`crate::claims::Method::loom_path`]) names its scenario too.
pub fn file_name(contract: &str, variant: &str, outcome: &str, path: Option<&str>) -> String {
    match path {
        Some(s) => format!(
            "counterexamples/{contract}/{variant}.{outcome}.{}.scn",
            crate::claims::slug(s)
        ),
        None => format!("counterexamples/{contract}/{variant}.{outcome}.scn"),
    }
}

/// A counterexample as a scenario file: the loom scenario it starts from, the variant, the
/// outcomes its final state shows, and its steps (consecutive steps of one actor as one
/// `step ACTOR N` line).
pub struct Counterexample<'a> {
    pub contract: &'a str,
    pub scenario: &'a str,
    pub variant: &'a str,
    /// The cell's outcome first, then every other outcome the final state shows.
    pub reached: &'a [&'a str],
    /// The actor of every step, in order.
    pub steps: &'a [&'a str],
}

impl Counterexample<'_> {
    pub fn to_file(&self) -> String {
        let mut out = format!(
            "# {}, {}/{}: the step checker's counterexample, every step of it, from the start of\n\
             # the loom scenario `{}`. Replay: cargo xtask replay FILE\n\
             contract {}\nscenario {}\nvariants {}\nexpect {} {}\n",
            self.contract,
            self.variant,
            self.reached.first().copied().unwrap_or("nothing"),
            self.scenario,
            self.contract,
            self.scenario,
            self.variant,
            self.variant,
            if self.reached.is_empty() {
                "nothing".to_owned()
            } else {
                self.reached.join(" ")
            }
        );
        let mut i = 0;
        while i < self.steps.len() {
            let actor = self.steps[i];
            let n = self.steps[i..].iter().take_while(|a| **a == actor).count();
            let times = if n > 1 {
                format!(" {n}")
            } else {
                String::new()
            };
            out.push_str(&format!("step {}{times}\n", actor_word(actor)));
            i += n;
        }
        out
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn runs_of_one_actor_become_one_line_and_names_with_spaces_are_quoted() {
        let file = Counterexample {
            contract: "c",
            scenario: "s",
            variant: "P1",
            reached: &["O5", "O1"],
            steps: &["client", "client", "close, then force delete", "client"],
        }
        .to_file();
        assert!(
            file.ends_with(
                "contract c\nscenario s\nvariants P1\nexpect P1 O5 O1\nstep client 2\n\
                 step \"close, then force delete\"\nstep client\n"
            ),
            "{file}"
        );
        assert!(file.starts_with("# c, P1/O5: "), "{file}");
    }
}
