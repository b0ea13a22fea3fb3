"""Publishing for Maven, Gradle and Go modules, and the panel's localized line saying how a release is
published (issue 26): a workflow on the tag push when there is one, else the ecosystem's command as a
terminal step, a staged upload with the publishing by hand named, or the tag itself served by the proxy."""
from __future__ import annotations

import pytest
from release_checklist import ReleaseSession, StepKind
from release_checklist.release_view import release_of
from release_checklist.text import TEXT
from release_checklist.view_release import publishing_line


def _open(make_repo, with_remote, data_dir, files, tag="v1.0.0"):
    repo = make_repo(version=None, files=files)
    repo.write("log.txt", tag + "\n")
    repo.commit(tag)
    repo.git("tag", "-a", tag, "-m", tag)
    repo.write("fix.txt", "fix\n")
    repo.commit("bump")
    with_remote(repo)
    return ReleaseSession(str(repo), data_dir)


def _after_push(session):
    push = next(index for index, step in enumerate(session.steps)
                if step.kind == StepKind.TERMINAL and (step.command or "").startswith("git push"))
    return [(step.kind, session.title_of(step), session.command_of(step), step.irreversible)
            for step in session.steps[push + 1:]]


POM = """<project>
  <artifactId>lib</artifactId>
  <version>1.0.1-SNAPSHOT</version>
  <build><plugins>
    <plugin>
      <groupId>org.sonatype.central</groupId>
      <artifactId>central-publishing-maven-plugin</artifactId>
      <configuration><publishingServerId>central</publishingServerId>{auto}</configuration>
    </plugin>
  </plugins></build>
  <profiles><profile><id>release</id></profile></profiles>
</project>
"""
OWN_REPOSITORY = """<project>
  <artifactId>lib</artifactId>
  <distributionManagement><repository><id>corp</id><url>https://repo.example.invalid/maven</url></repository>
  </distributionManagement>
</project>
"""
TAG_WORKFLOW = """on:
  push:
    tags: ['v*']
jobs:
  publish:
    steps:
      - run: ./gradlew publishToMavenCentral
"""


def test_maven_central_with_auto_publish_is_a_deploy_step(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"pom.xml": POM.format(auto="<autoPublish>true</autoPublish>"),
                                                       "mvnw": "#!/bin/sh\n"})
    assert (session.publishing.kind, session.publishing.command) == ("command", "./mvnw -P release deploy")
    assert _after_push(session) == [(StepKind.TERMINAL, "Publish 1.0.1", "./mvnw -P release deploy", True)]


def test_a_maven_deploy_that_only_stages_names_the_publishing_by_hand(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"pom.xml": POM.format(auto="")})
    assert (session.publishing.kind, session.publishing.registry) == ("manual", "Maven Central")
    after = _after_push(session)
    assert after[0] == (StepKind.TERMINAL, "Upload 1.0.1 to Maven Central", "mvn -P release deploy", True)
    assert after[1][:2] == (StepKind.MANUAL, "Publish 1.0.1 on Maven Central")
    assert "by hand" in after[1][2]


def test_a_pom_deploying_to_its_own_repository(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"pom.xml": OWN_REPOSITORY})
    assert (session.publishing.kind, session.publishing.command) == ("command", "mvn deploy")


def test_a_pom_without_a_deploy_target_is_published_by_hand(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"pom.xml": "<project><artifactId>app</artifactId></project>\n"})
    assert (session.publishing.kind, session.publishing.command) == ("manual", None)


@pytest.mark.parametrize("files, command", [
    ({"build.gradle.kts": 'plugins {\n  `maven-publish`\n}\n', "gradlew": "#!/bin/sh\n"}, "./gradlew publish"),
    ({"build.gradle": "plugins { id 'com.vanniktech.maven.publish' version '0.30.0' }\n"},
     "gradle publishAndReleaseToMavenCentral"),
    ({"settings.gradle.kts": 'include("core")\n', "gradlew": "#!/bin/sh\n",
      "buildSrc/src/main/kotlin/lib.publish.gradle.kts": 'plugins { id("io.github.gradle-nexus.publish-plugin") }\n'},
     "./gradlew publishToSonatype closeAndReleaseSonatypeStagingRepository"),
    ({"build.gradle.kts": 'plugins { id("com.gradle.plugin-publish") version "1.3.0" }\n'}, "gradle publishPlugins"),
    ({"settings.gradle": "include 'core'\n", "core/build.gradle": "apply plugin: 'maven-publish'\n"},
     "gradle publish"),
])
def test_gradle_publishes_with_the_task_of_its_publishing_plugin(make_repo, with_remote, data_dir, files, command):
    session = _open(make_repo, with_remote, data_dir, files)
    assert (session.publishing.kind, session.publishing.command) == ("command", command)
    assert _after_push(session) == [(StepKind.TERMINAL, "Publish 1.0.1", command, True)]


def test_a_gradle_build_that_publishes_from_ci_on_the_tag_names_the_workflow(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"build.gradle.kts": 'plugins { `maven-publish` }\n',
                                                       ".github/workflows/release.yml": TAG_WORKFLOW})
    assert (session.publishing.kind, session.publishing.workflows) == ("ci-tag", (".github/workflows/release.yml",))


def test_a_go_module_asks_the_proxy_for_its_tag_after_the_push(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"go.mod": "module example.com/tool/v2\n\ngo 1.22\n"},
                    tag="v2.0.0")
    assert (session.publishing.kind, session.publishing.module) == ("go", "example.com/tool/v2")
    assert _after_push(session) == [(StepKind.TERMINAL, "Ask the Go proxy for v2.0.1",
                                     "go list -m example.com/tool/v2@v2.0.1", False)]


@pytest.mark.parametrize("language", ["en", "ja", "ko", "zh"])
def test_the_panel_says_how_the_release_is_published_in_every_language(make_repo, with_remote, data_dir, language):
    t = TEXT.for_language(language)
    cases = [
        ({"pom.xml": POM.format(auto="")}, ("mvn -P release deploy", "Maven Central")),
        ({"build.gradle.kts": 'plugins { `maven-publish` }\n'}, ("gradle publish",)),
        ({"go.mod": "module example.com/tool\n"}, ("v1.0.1", "Go module proxy")),
        ({"configure.ac": "AC_INIT([lib], [1.0.0])\n"}, ()),
        ({"build.gradle.kts": 'plugins { `maven-publish` }\n', ".github/workflows/release.yml": TAG_WORKFLOW},
         (".github/workflows/release.yml", "v1.0.1")),
    ]
    lines = []
    for number, (files, named) in enumerate(cases):
        session = _open(make_repo, with_remote, f"{data_dir}{number}", files)
        line = publishing_line(release_of(session), t)
        assert line and all(name in line for name in named), line
        lines.append(line)
    assert len(set(lines)) == len(lines)  # each kind in its own words
    if language != "en":
        english = TEXT.for_language("en")
        assert lines[3] == t("publish_manual") != english("publish_manual")
