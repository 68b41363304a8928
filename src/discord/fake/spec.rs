//! Discord's published API held against every call the fake receives.
//!
//! Discord publishes its HTTP API as an OpenAPI 3.1 document (MIT
//! licence). The repository keeps a reduced copy,
//! `tests/data/discord/openapi.json` (routes, methods and request body
//! schemas with their limits; its `x-source` names the commit), made by
//! `scripts/discord-spec.py` from the published one and compiled into
//! the fake, so a clone checks requests with nothing beside it. The fake
//! matches each call to a route template of that document (method and
//! path, `{channel_id}` standing for any segment) and validates its JSON
//! body (`payload_json` for uploads) against the route's request schema
//! with `jsonschema` (draft 2020-12, as OpenAPI 3.1 says). A call outside
//! the document, or a body it refuses, is a [`Violation`]: the fake
//! answers it as Discord does (400, code 50035 "Invalid Form Body", the
//! errors nested by field) and keeps it for the test, which fails on it.
//!
//! One documented exception: upload `attachments[].id` may be the integer
//! index (Discord's own upload examples send `"id": 0`; the schema says
//! snowflake string).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use serde_json::{Map, Value, json};

/// The reduced document kept in the repository (`scripts/discord-spec.py`).
const REDUCED: &str = include_str!("../../../tests/data/discord/openapi.json");

/// Another copy of the document to check against (a newer published one,
/// whole or reduced), named by `ECHOES_DISCORD_SPEC`.
pub fn spec_override() -> Option<std::path::PathBuf> {
    std::env::var_os("ECHOES_DISCORD_SPEC").map(std::path::PathBuf::from)
}

/// One call Discord would refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub method: String,
    /// The route template (`/channels/{channel_id}/messages`), or the
    /// path itself when no route of the document matches.
    pub route: String,
    /// The JSON pointer of the refused value (`/embeds/0/title`); empty
    /// for the whole body or the route.
    pub pointer: String,
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.pointer.is_empty() { "(body)" } else { &self.pointer };
        write!(f, "{} {}: {at}: {}", self.method, self.route, self.message)
    }
}

/// A route of the document: method, template split by `/`, and the JSON
/// schema of its body (none for routes without one).
struct Route {
    method: String,
    template: String,
    segments: Vec<String>,
    body: Option<Value>,
    body_required: bool,
}

impl Route {
    /// How well `path` fits: `None` when it does not, else the number of
    /// literal segments matched (the most literal route wins).
    fn fit(&self, method: &str, path: &[&str]) -> Option<usize> {
        if !self.method.eq_ignore_ascii_case(method) || self.segments.len() != path.len() {
            return None;
        }
        let mut literal = 0;
        for (template, segment) in self.segments.iter().zip(path) {
            if template.starts_with('{') && template.ends_with('}') {
                if segment.is_empty() {
                    return None;
                }
            } else if template == segment {
                literal += 1;
            } else {
                return None;
            }
        }
        Some(literal)
    }
}

/// The document, its routes, and each route's validator once compiled.
pub struct Spec {
    routes: Vec<Route>,
    components: Value,
    validators: Mutex<HashMap<usize, Arc<Validator>>>,
}

impl Spec {
    /// The document for this process, read once: `ECHOES_DISCORD_SPEC`'s
    /// file, else the reduced copy compiled in. `None` (with a warning)
    /// only where the named file can't be read; the fake then checks
    /// nothing, and the test `the_spec_is_there` fails.
    pub fn shared() -> Option<&'static Spec> {
        static SPEC: OnceLock<Option<Spec>> = OnceLock::new();
        let loaded = || match spec_override() {
            Some(path) => Spec::load(&path),
            None => Spec::parse(REDUCED),
        };
        SPEC.get_or_init(|| match loaded() {
            Ok(spec) => Some(spec),
            Err(error) => {
                tracing::warn!(%error, "Discord's OpenAPI document is not loaded: the fake checks no request");
                None
            }
        })
        .as_ref()
    }

    pub fn load(path: &std::path::Path) -> anyhow::Result<Spec> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("reading Discord's OpenAPI document {}: {e}", path.display()))?;
        Spec::parse(&text)
    }

    pub fn parse(text: &str) -> anyhow::Result<Spec> {
        let document: Value = serde_json::from_str(text)?;
        let paths = document["paths"].as_object().ok_or_else(|| anyhow::anyhow!("no `paths` in the document"))?;
        let mut routes = Vec::new();
        for (template, item) in paths {
            for (method, operation) in item.as_object().into_iter().flatten() {
                if !matches!(method.as_str(), "get" | "post" | "put" | "patch" | "delete") {
                    continue;
                }
                let content = &operation["requestBody"]["content"];
                let body = content.get("application/json").or_else(|| content.get("multipart/form-data"));
                routes.push(Route {
                    method: method.to_ascii_uppercase(),
                    template: template.clone(),
                    segments: template.trim_start_matches('/').split('/').map(str::to_owned).collect(),
                    body: body.map(|b| b["schema"].clone()),
                    body_required: operation["requestBody"]["required"].as_bool().unwrap_or(false),
                });
            }
        }
        let components = document.get("components").cloned().unwrap_or(Value::Null);
        Ok(Spec { routes, components, validators: Mutex::default() })
    }

    /// What Discord would refuse in `method path` with `body` (null for
    /// none); empty when the call conforms.
    pub fn check(&self, method: &str, path: &str, body: &Value) -> Vec<Violation> {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let best = self.routes.iter().enumerate().filter_map(|(i, r)| r.fit(method, &segments).map(|f| (f, i))).max();
        let Some((_, index)) = best else {
            return vec![Violation {
                method: method.to_owned(),
                route: path.to_owned(),
                pointer: String::new(),
                message: "no such route in Discord's API".into(),
            }];
        };
        let route = &self.routes[index];
        let violation = |pointer: String, message: String| Violation {
            method: route.method.clone(),
            route: route.template.clone(),
            pointer,
            message,
        };
        if body.is_null() {
            return if route.body_required {
                vec![violation(String::new(), "a body is required".into())]
            } else {
                vec![]
            };
        }
        let Some(validator) = self.validator(index) else {
            return vec![violation(String::new(), "this route takes no body".into())];
        };
        let mut found = Vec::new();
        for error in validator.iter_errors(body) {
            leaves(&error, &mut found);
        }
        found.retain(|(pointer, _)| !integer_upload_id(body, pointer));
        found.sort();
        found.dedup();
        found.into_iter().map(|(pointer, message)| violation(pointer, message)).collect()
    }

    fn validator(&self, index: usize) -> Option<Arc<Validator>> {
        let mut validators = self.validators.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(validator) = validators.get(&index) {
            return Some(validator.clone());
        }
        let schema = self.routes[index].body.as_ref()?;
        // The route's schema as the root of a document that also holds the
        // components its `$ref`s (`#/components/schemas/...`) point into.
        let mut root = Map::new();
        root.insert("$schema".into(), json!("https://json-schema.org/draft/2020-12/schema"));
        root.insert("components".into(), self.components.clone());
        root.insert("allOf".into(), json!([schema]));
        let validator = match jsonschema::draft202012::options().build(&Value::Object(root)) {
            Ok(validator) => Arc::new(validator),
            Err(error) => {
                tracing::error!(route = %self.routes[index].template, %error, "a schema of Discord's document does not compile");
                return None;
            }
        };
        validators.insert(index, validator.clone());
        Some(validator)
    }
}

/// The innermost errors under `error`: for `anyOf`/`oneOf`, those of the
/// alternative that got deepest into the value (the one the body meant),
/// so the report names the field, not "matches none of 7 schemas".
fn leaves(error: &ValidationError<'_>, out: &mut Vec<(String, String)>) {
    let alternatives = match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => context,
        _ => {
            out.push((error.instance_path().as_str().to_owned(), error.masked().to_string()));
            return;
        }
    };
    let depth = |errors: &Vec<ValidationError<'static>>| {
        (errors.iter().map(deepest).max().unwrap_or(0), std::cmp::Reverse(errors.len()))
    };
    match alternatives.iter().filter(|errors| !errors.is_empty()).max_by_key(|errors| depth(errors)) {
        Some(errors) => errors.iter().for_each(|e| leaves(e, out)),
        None => out.push((error.instance_path().as_str().to_owned(), error.masked().to_string())),
    }
}

/// How deep into the value an error's tree reaches (its own path, or
/// the deepest of any alternative's errors).
fn deepest(error: &ValidationError<'_>) -> usize {
    let own = error.instance_path().as_str().matches('/').count();
    let inner = match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            context.iter().flatten().map(deepest).max().unwrap_or(0)
        }
        _ => 0,
    };
    own.max(inner)
}

/// `/attachments/N/id` holding an integer: the upload index Discord's
/// own examples send.
fn integer_upload_id(body: &Value, pointer: &str) -> bool {
    let mut parts = pointer.trim_start_matches('/').split('/');
    let shaped = parts.next() == Some("attachments")
        && parts.next().is_some_and(|n| n.parse::<usize>().is_ok())
        && parts.next() == Some("id")
        && parts.next().is_none();
    shaped && body.pointer(pointer).is_some_and(Value::is_u64)
}

/// Discord's answer to a body it refuses: 50035 with the errors nested by
/// field (`{"embeds": {"0": {"title": {"_errors": [...]}}}}`).
pub fn invalid_form_body(violations: &[Violation]) -> Value {
    let mut errors = Value::Object(Map::new());
    for violation in violations {
        let mut at = &mut errors;
        for part in violation.pointer.trim_start_matches('/').split('/').filter(|p| !p.is_empty()) {
            at = match at {
                Value::Object(object) => object.entry(part.to_owned()).or_insert_with(|| json!({})),
                other => other,
            };
        }
        if let Value::Object(object) = at
            && let Value::Array(list) = object.entry("_errors").or_insert_with(|| json!([]))
        {
            list.push(json!({"code": "INVALID_FORM_BODY", "message": violation.message}));
        }
    }
    json!({"code": 50035, "message": "Invalid Form Body", "errors": errors})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> &'static Spec {
        Spec::shared().unwrap_or_else(|| panic!("Discord's OpenAPI document did not load ({:?})", spec_override()))
    }

    #[test]
    fn the_spec_is_there() {
        assert!(spec().routes.len() > 100, "{} routes", spec().routes.len());
    }

    #[test]
    fn the_reduced_copy_names_its_source_and_keeps_the_limits() {
        let document: Value = serde_json::from_str(REDUCED).unwrap();
        let source = &document["x-source"];
        assert_eq!(source["repository"], "https://github.com/discord/discord-api-spec");
        assert!(source["commit"].as_str().is_some_and(|c| c.len() >= 7), "{source}");
        assert!(source["licence"].as_str().is_some_and(|l| l.starts_with("MIT")), "{source}");
        assert!(!REDUCED.contains("\"example"), "examples are stripped");
        let embed = &document["components"]["schemas"]["RichEmbed"]["properties"];
        assert_eq!(embed["title"]["maxLength"], 256, "{embed}");
        assert!(embed.get("description").is_some(), "a field named like an annotation stays");
    }

    #[test]
    fn a_plain_message_conforms() {
        let body = json!({"content": "hello", "allowed_mentions": {"parse": []}});
        assert_eq!(spec().check("POST", "/channels/20/messages", &body), vec![]);
    }

    #[test]
    fn an_over_long_embed_title_is_named_by_its_path() {
        let body = json!({"embeds": [{"title": "x".repeat(300)}]});
        let found = spec().check("POST", "/channels/20/messages", &body);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].route, "/channels/{channel_id}/messages");
        assert_eq!(found[0].pointer, "/embeds/0/title");
    }

    #[test]
    fn an_unknown_route_is_a_violation() {
        let found = spec().check("POST", "/channels/20/teleport", &json!({}));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "no such route in Discord's API");
    }

    #[test]
    fn an_interaction_response_is_checked_against_its_type() {
        let good = json!({"type": 4, "data": {"content": "hi", "flags": 64}});
        let path = "/interactions/5/token-5/callback";
        assert_eq!(spec().check("POST", path, &good), vec![]);
        let bad = json!({"type": 4, "data": {"content": "x".repeat(2001), "embeds": [{"description": 7}]}});
        let found = spec().check("POST", path, &bad);
        let pointers: Vec<&str> = found.iter().map(|v| v.pointer.as_str()).collect();
        assert!(pointers.contains(&"/data/embeds/0/description"), "{found:?}");
    }

    #[test]
    fn an_integer_upload_id_is_allowed() {
        let body = json!({"content": "file", "attachments": [{"id": 0, "filename": "a.png"}]});
        assert_eq!(spec().check("POST", "/channels/20/messages", &body), vec![]);
        let body = json!({"content": "file", "attachments": [{"id": [0], "filename": "a.png"}]});
        assert!(!spec().check("POST", "/channels/20/messages", &body).is_empty());
    }

    #[test]
    fn refusals_nest_errors_by_field() {
        let violation = Violation {
            method: "POST".into(),
            route: "/channels/{channel_id}/messages".into(),
            pointer: "/embeds/0/title".into(),
            message: "too long".into(),
        };
        let body = invalid_form_body(&[violation]);
        assert_eq!(body["code"], 50035);
        assert_eq!(body["errors"]["embeds"]["0"]["title"]["_errors"][0]["message"], "too long");
    }
}
