package schemas

// QuestionsSchemaFile is the name, in Files, of the JSON Schema of a bench
// questions file (testdata/captured/*.questions.yaml). Editors can use it
// with a comment on a questions file's first line:
//
//	# yaml-language-server: $schema=../../schemas/questions.schema.json
const QuestionsSchemaFile = "questions.schema.json"

// QuestionsSchemaID is the $id of the questions schema.
const QuestionsSchemaID = "https://github.com/toolcompact/compact/schemas/questions.schema.json"
