"""relnotes-qa: questions in, cited answers out (the answering service, its CLI, chat, evaluation)."""
