//! OpenSpiel-style spec strings: `name`, `name()`, `name(key=value,...)`.
//!
//! Game strings (`slingshot(size=7)`) and agent specs (`mcts(iterations=800)`)
//! share this syntax. Values may nest brackets (`pie(catapult(size=9))`,
//! `mcts(c=[0.5,1.0])`): commas inside `()` or `[]` do not split arguments.
//! A bare argument without `=` is kept with an empty key. A value in double
//! quotes (`external(cmd="prog --x a,b")`) is opaque: brackets, commas and
//! `=` inside it do not count; the quotes are kept in the value.

use crate::error::GameError;

/// A parsed spec: a name and its `key=value` arguments in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The name before the parenthesis, lower-cased and trimmed.
    pub name: String,
    /// `(key, value)` pairs, trimmed; a bare argument has key `""`.
    pub args: Vec<(String, String)>,
}

impl Spec {
    /// Parses `name` or `name(k=v,...)`.
    ///
    /// # Errors
    /// An empty name, unbalanced brackets, text after the closing
    /// parenthesis, an empty argument or key.
    pub fn parse(text: &str) -> Result<Spec, GameError> {
        let text = text.trim();
        // A spec is one line: a control character inside it (a newline, a
        // tab, a NUL) is never part of a name or value, and a message that
        // echoed it would not be one line.
        if let Some(c) = text.chars().find(|c| c.is_control()) {
            crate::bail!("bad spec {text:?}: control character {c:?}; a spec is one line");
        }
        let (name, rest) = match text.find('(') {
            Some(i) => (&text[..i], Some(&text[i..])),
            None => (text, None),
        };
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            crate::bail!(
                "bad spec {text:?}: expected a name of letters, digits and '_', then optionally (key=value,...)"
            );
        }
        let mut args = Vec::new();
        if let Some(rest) = rest {
            if !rest.ends_with(')') {
                crate::bail!("bad spec {text:?}: expected it to end with ')'");
            }
            let inner = &rest[1..rest.len() - 1];
            for part in split_top_level(inner, text)? {
                let part = part.trim();
                if part.is_empty() {
                    if inner.trim().is_empty() {
                        break;
                    }
                    crate::bail!("bad spec {text:?}: empty argument");
                }
                match find_top_level_eq(part) {
                    Some(i) => {
                        let key = part[..i].trim();
                        let value = part[i + 1..].trim();
                        if key.is_empty() {
                            crate::bail!(
                                "bad spec {text:?}: argument {part:?} has no key before '='"
                            );
                        }
                        args.push((key.to_ascii_lowercase(), value.to_string()));
                    }
                    None => args.push((String::new(), part.to_string())),
                }
            }
        }
        Ok(Spec {
            name: name.to_ascii_lowercase(),
            args,
        })
    }
}

fn split_top_level<'a>(inner: &'a str, whole: &str) -> Result<Vec<&'a str>, GameError> {
    let mut depth = 0i32;
    let mut start = 0;
    let mut out = Vec::new();
    let mut quoted = false;
    for (i, ch) in inner.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            _ if quoted => {}
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    crate::bail!("bad spec {whole:?}: unbalanced brackets");
                }
            }
            ',' if depth == 0 => {
                out.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        crate::bail!("bad spec {whole:?}: a '\"' has no closing quote");
    }
    if depth != 0 {
        crate::bail!("bad spec {whole:?}: unbalanced brackets");
    }
    out.push(&inner[start..]);
    Ok(out)
}

fn find_top_level_eq(part: &str) -> Option<usize> {
    let mut depth = 0;
    let mut quoted = false;
    for (i, ch) in part.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            _ if quoted => {}
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '=' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// One declared parameter of a game or agent: its name, default, the values
/// it accepts (as shown to users) and a one-line description.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// Parameter name as written in specs.
    pub name: &'static str,
    /// Default value, as text.
    pub default: &'static str,
    /// Accepted values, e.g. `"7|9"` or `"integer >= 1"`.
    pub values: &'static str,
    /// One-line description with the rule source.
    pub help: &'static str,
}

/// Reads a spec's arguments against declared parameters.
///
/// Every argument must name a declared parameter (an unknown one is an
/// error that lists the valid ones); each may appear once.
pub struct Params<'a> {
    what: &'a str,
    declared: &'a [ParamInfo],
    args: Vec<(String, String)>,
}

impl<'a> Params<'a> {
    /// Checks `spec`'s arguments against `declared`. `what` names the thing
    /// in messages (e.g. `game slingshot`).
    ///
    /// # Errors
    /// Unknown, repeated or bare arguments.
    pub fn new(what: &'a str, spec: &Spec, declared: &'a [ParamInfo]) -> Result<Self, GameError> {
        let valid = || {
            if declared.is_empty() {
                "it takes no parameters".to_string()
            } else {
                let names: Vec<String> = declared
                    .iter()
                    .map(|p| format!("{}={}", p.name, p.values))
                    .collect();
                format!("valid: {}", names.join(", "))
            }
        };
        for (i, (k, v)) in spec.args.iter().enumerate() {
            if k.is_empty() {
                crate::bail!(
                    "{what}: argument {v:?} needs the form key=value ({})",
                    valid()
                );
            }
            if !declared.iter().any(|p| p.name == k) {
                crate::bail!("{what}: unknown parameter {k:?} ({})", valid());
            }
            if spec.args[..i].iter().any(|(k2, _)| k2 == k) {
                crate::bail!("{what}: parameter {k:?} given twice");
            }
        }
        Ok(Params {
            what,
            declared,
            args: spec.args.clone(),
        })
    }

    /// The value text of `name`, or its declared default.
    pub fn text(&self, name: &str) -> &str {
        if let Some((_, v)) = self.args.iter().find(|(k, _)| k == name) {
            return v;
        }
        self.declared
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.default)
            .unwrap_or("")
    }

    /// The value of `name` as one of `choices`.
    ///
    /// # Errors
    /// A value not among `choices` (the message lists them).
    pub fn choice<T: Copy>(&self, name: &str, choices: &[(&str, T)]) -> Result<T, GameError> {
        let v = self.text(name);
        for (text, value) in choices {
            if v.eq_ignore_ascii_case(text) {
                return Ok(*value);
            }
        }
        let names: Vec<&str> = choices.iter().map(|(t, _)| *t).collect();
        crate::bail!(
            "{}: {name}={v:?} is not valid (expected one of {})",
            self.what,
            names.join("|")
        )
    }

    /// The value of `name` parsed as `T`.
    ///
    /// # Errors
    /// A value that does not parse, named with what was expected.
    pub fn parse<T: std::str::FromStr>(&self, name: &str) -> Result<T, GameError> {
        let v = self.text(name);
        let expected = self
            .declared
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.values)
            .unwrap_or("a value");
        v.parse::<T>().map_err(|_| {
            GameError::new(format!(
                "{}: {name}={v:?} is not valid (expected {expected})",
                self.what
            ))
        })
    }

    /// Whether the spec gave `name` explicitly.
    pub fn given(&self, name: &str) -> bool {
        self.args.iter().any(|(k, _)| k == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_nested_args() {
        let s = Spec::parse("slingshot").unwrap();
        assert_eq!(s.name, "slingshot");
        assert!(s.args.is_empty());
        let s = Spec::parse(" Slingshot( size = 7 ) ").unwrap();
        assert_eq!(s.args, vec![("size".into(), "7".into())]);
        let s = Spec::parse("pie(catapult(size=9,royal=true))").unwrap();
        assert_eq!(
            s.args,
            vec![(String::new(), "catapult(size=9,royal=true)".into())]
        );
        let s = Spec::parse("mcts(c=[0.5,1.0],iterations=10)").unwrap();
        assert_eq!(s.args[0], ("c".into(), "[0.5,1.0]".into()));
        assert_eq!(s.args[1], ("iterations".into(), "10".into()));
        assert!(Spec::parse("x()").unwrap().args.is_empty());
        // Quoted values are opaque: no split at the comma, no key at the '='.
        let s = Spec::parse(r#"external(cmd="prog --agents a,b x=1 (",ms=5)"#).unwrap();
        assert_eq!(
            s.args,
            vec![
                ("cmd".into(), r#""prog --agents a,b x=1 (""#.into()),
                ("ms".into(), "5".into())
            ]
        );
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            "(a=1)",
            "a(b=1",
            "a(b=1))",
            "a(b=1)x",
            "a(,)",
            "a(=3)",
            "a b",
            r#"a(b="c)"#,
        ] {
            assert!(Spec::parse(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn params_reject_unknown_and_repeats() {
        const P: &[ParamInfo] = &[ParamInfo {
            name: "size",
            default: "9",
            values: "7|9",
            help: "",
        }];
        let s = Spec::parse("g(size=7)").unwrap();
        let p = Params::new("game g", &s, P).unwrap();
        assert_eq!(p.parse::<u32>("size").unwrap(), 7);
        let e = Params::new("game g", &Spec::parse("g(colour=7)").unwrap(), P)
            .err()
            .unwrap();
        assert!(
            e.0.contains("unknown parameter") && e.0.contains("size=7|9"),
            "{e}"
        );
        assert!(Params::new("game g", &Spec::parse("g(size=7,size=9)").unwrap(), P).is_err());
        let p = Params::new("game g", &Spec::parse("g(size=x)").unwrap(), P).unwrap();
        assert!(p.parse::<u32>("size").is_err());
        assert_eq!(
            p.choice("size", &[("7", 7), ("9", 9)]).err().unwrap().0,
            "game g: size=\"x\" is not valid (expected one of 7|9)"
        );
    }
}
