# Chaos Referee in a container: one bot process, its SQLite file on the /data volume, run as a
# user of its own. compose.yaml runs it (docs/hosting.md):
#   docker build -t chaos-referee .
#   docker run -d --env-file .env -v chaos-data:/data chaos-referee
#   docker run -it --rm -v chaos-data:/data chaos-referee play   # the offline console
#
# BASE is the official Python image. The tests build on a local Debian image instead (no image
# registry is reachable there), which is why it is an argument.
ARG BASE=python:3.11-slim-bookworm

FROM ${BASE} AS build
# The tests set these to install from wheels downloaded beforehand, with no network:
# PIP_NO_INDEX=1 and PIP_FIND_LINKS=/src/wheels (a folder beside this file in their copy).
ARG PIP_NO_INDEX
ARG PIP_FIND_LINKS
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_ROOT_USER_ACTION=ignore
COPY . /src
# Exactly the runtime lock, checked against its hashes, as `make run` installs it.
RUN python3 -m venv /opt/venv \
    && /opt/venv/bin/pip install --require-hashes -r /src/requirements.lock \
    && printf '#!/bin/sh\nexec /opt/venv/bin/python3 -m bot "$@"\n' > /opt/venv/bin/chaos-referee \
    && chmod 755 /opt/venv/bin/chaos-referee

FROM ${BASE}
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home chaos \
    && mkdir /data && chown chaos:chaos /data
COPY --from=build /opt/venv /opt/venv
# The bot runs from its source (the bundled tables sit beside the packages).
COPY --from=build /src/bot /app/bot
COPY --from=build /src/cogs /app/cogs
COPY --from=build /src/tables /app/tables
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    CHAOS_DB_PATH=/data/chaos-referee.db
USER chaos
WORKDIR /data
VOLUME /data
# The live game pages and /healthz, when CHAOS_WEB_PORT is 8080 (compose.yaml sets it).
EXPOSE 8080
# SIGTERM stops the bot cleanly: it finishes the answers it is sending first.
STOPSIGNAL SIGTERM
ENTRYPOINT ["chaos-referee"]
