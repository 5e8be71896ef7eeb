-- The study database as schema version 1 wrote it (SQLite), to test the upgrade to the current version.
CREATE TABLE aspectnav_meta (
	"key" VARCHAR(64) NOT NULL, 
	value VARCHAR(256) NOT NULL, 
	PRIMARY KEY ("key")
);
CREATE TABLE studies (
	id INTEGER NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	fingerprint VARCHAR(32) NOT NULL, 
	definition TEXT NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name)
);
CREATE TABLE participants (
	id INTEGER NOT NULL, 
	study_id INTEGER NOT NULL, 
	code VARCHAR(32) NOT NULL, 
	shuffle_seed BIGINT NOT NULL, 
	task_order TEXT NOT NULL, 
	started_at DATETIME NOT NULL, 
	finished_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(study_id) REFERENCES studies (id) ON DELETE CASCADE, 
	UNIQUE (code)
);
CREATE INDEX ix_participants_study_id ON participants (study_id);
CREATE TABLE presentations (
	id INTEGER NOT NULL, 
	participant_id INTEGER NOT NULL, 
	task_id VARCHAR(64) NOT NULL, 
	candidates TEXT NOT NULL, 
	shown_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (participant_id, task_id), 
	FOREIGN KEY(participant_id) REFERENCES participants (id) ON DELETE CASCADE
);
CREATE INDEX ix_presentations_participant_id ON presentations (participant_id);
CREATE TABLE answers (
	id INTEGER NOT NULL, 
	participant_id INTEGER NOT NULL, 
	task_id VARCHAR(64) NOT NULL, 
	ranking TEXT NOT NULL, 
	candidates TEXT NOT NULL, 
	answered_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (participant_id, task_id), 
	FOREIGN KEY(participant_id) REFERENCES participants (id) ON DELETE CASCADE
);
CREATE INDEX ix_answers_participant_id ON answers (participant_id);
INSERT INTO aspectnav_meta VALUES ('schema_version', '1');
