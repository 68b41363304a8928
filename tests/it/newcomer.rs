//! A newcomer's games on the embedded default, through the real binary: no
//! model service, the packaged small model (too small to judge) and the
//! sentence embedder. Five bundled puzzles (en and zh), each played from a
//! script written as a new player types: every verdict shown must be the
//! story's (a question the known answers do not cover is "can't tell",
//! never a coin toss), and the commands said plainly (`hint`, `status`,
//! `give up`, `提示`, `放弃`) work without the slash.

use echoes::core::game::record::Verdict;
use echoes::core::store::SessionRecord;
use echoes::models::testing;

use crate::support::Sandbox;

/// One puzzle's script: the questions with the story's verdicts, then the
/// plain commands.
struct Script {
    puzzle: &'static str,
    questions: &'static [(&'static str, Verdict)],
    commands: &'static [&'static str],
}

const SCRIPTS: &[Script] = &[
    Script {
        puzzle: "en-midnight-rooster",
        questions: &[
            ("was there a light involved", Verdict::Yes),
            ("did the rooster think it was morning already?", Verdict::Yes),
            ("Was it a ghost?", Verdict::No),
            ("was the light on all night long", Verdict::No),
            ("did the neighbours have a dog", Verdict::No),
            ("were they worried about burglars?", Verdict::Yes),
            ("did someone die?", Verdict::No),
        ],
        commands: &["hint", "status", "give up"],
    },
    Script {
        puzzle: "en-arrivals-sign",
        questions: &[
            ("was the old man her dad", Verdict::Yes),
            ("had they met before?", Verdict::No),
            ("was Ana adopted", Verdict::Yes),
            ("did he know what she looked like?", Verdict::No),
            ("did they write letters to each other", Verdict::Yes),
            ("did someone die?", Verdict::No),
        ],
        commands: &["Hint please", "status", "i give up"],
    },
    Script {
        puzzle: "en-noon-gun",
        questions: &[
            ("was the cannon fired late", Verdict::Yes),
            ("was the chronometer broken?", Verdict::No),
            ("did the captain set his clock by the gun?", Verdict::Yes),
            ("was the mistake in latitude", Verdict::No),
        ],
        commands: &["hint", "give up"],
    },
    Script {
        puzzle: "zh-salt-stone",
        questions: &[
            ("盐是给牦牛吃的吗", Verdict::Yes),
            ("牦牛需要盐吗？", Verdict::Yes),
            ("牧民整天跟着牛群吗", Verdict::No),
            ("盐里有药吗？", Verdict::No),
            ("牛群会自己回到那块石头那里吗", Verdict::Yes),
        ],
        commands: &["提示", "状态", "放弃"],
    },
    Script {
        puzzle: "zh-zodiac-twins",
        questions: &[
            ("出生证明写错了吗", Verdict::No),
            ("他们是除夕夜出生的吗？", Verdict::Yes),
            ("属相是按农历算的吗", Verdict::Yes),
            ("他们是在不同时区出生的吗？", Verdict::No),
        ],
        commands: &["给个提示", "我放弃"],
    },
];

#[tokio::test]
async fn a_newcomer_gets_no_wrong_verdict_on_the_embedded_default() {
    let (Some(_), Some(_)) = (testing::small_chat(), testing::embedder()) else { return };
    let models_dir = testing::model_dir().root().display().to_string();
    let sandbox = Sandbox::new();
    let mut answered = 0;
    let mut asked = 0;
    for script in SCRIPTS {
        let lines: Vec<&str> =
            script.questions.iter().map(|(q, _)| *q).chain(script.commands.iter().copied()).collect();
        let file = sandbox.write(&format!("{}.txt", script.puzzle), &(lines.join("\n") + "\n"));
        let refused = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
        let mut cmd = sandbox.echoes(Some(&format!("http://{refused}")));
        cmd.env("ECHOES__LLM__PROVIDER", "auto");
        cmd.env("ECHOES__LLM__LOCAL__MODELS_DIR", &models_dir);
        cmd.env("ECHOES__LLM__LOCAL__CHAT_MODEL", "small");
        cmd.env("ECHOES__LLM__LOCAL__HUB_URL", format!("http://{refused}"));
        cmd.env("ECHOES__KNOWLEDGE__EMBEDDER", "auto");
        cmd.env("ECHOES__GAME__KNOWN_ANSWERS", "true");
        let output = cmd
            .args(["play", script.puzzle, "--name", "Newcomer", "--script", file.to_str().unwrap()])
            .output()
            .await
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(output.status.success(), "{}: {stderr}\n{stdout}", script.puzzle);

        let store = echoes::store::SqlStore::open(&sandbox.path().join("echoes.db")).await.unwrap();
        let session = store.recent_sessions(1).await.unwrap().remove(0);
        let loaded = store.load_session(&session.id).await.unwrap().unwrap();
        for (question, truth) in script.questions {
            let turn =
                loaded.turns.iter().find(|t| t.input == *question).unwrap_or_else(|| panic!("{question}: no turn"));
            asked += 1;
            match turn.verdict {
                Some(verdict) => {
                    assert_eq!(
                        verdict, *truth,
                        "{}: {question:?} got a wrong verdict: {}",
                        script.puzzle, turn.reply.text
                    );
                    answered += 1;
                }
                None => assert!(
                    turn.reply.text.contains("can't tell") || turn.reply.text.contains("判断不了"),
                    "{}: {question:?}: {}",
                    script.puzzle,
                    turn.reply.text
                ),
            }
        }
        // The plain commands: a hint was taken, the game was given up.
        assert!(
            loaded.turns.iter().any(|t| t.kind == "hint"),
            "{}: no hint from a plain command\n{stdout}",
            script.puzzle
        );
        assert!(
            loaded.turns.iter().any(|t| t.kind == "giveup"),
            "{}: not given up by a plain command\n{stdout}",
            script.puzzle
        );
    }
    assert!(answered * 2 >= asked, "only {answered} of {asked} scripted questions got a verdict");
}
