# The bot as a container: python:3.11-slim, the package installed, run as a non-root user.
# `docker compose up` (compose.yaml) runs PostgreSQL and two bot processes with it.

# The project as a wheel, built apart so that neither its source nor the build tools
# reach the image.
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
RUN pip wheel --quiet --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --system --create-home --uid 10001 tablebot \
    && mkdir -p /data \
    && chown tablebot /data

# The dependencies in one layer of their own, read from pyproject.toml alone: a change of
# the code reinstalls only the project's wheel below.
COPY pyproject.toml /tmp/pyproject.toml
RUN python -c "import tomllib; print(*tomllib.load(open('/tmp/pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" > /tmp/requirements.txt \
    && pip install --quiet -r /tmp/requirements.txt \
    && rm /tmp/pyproject.toml /tmp/requirements.txt

COPY --from=wheel /wheels /tmp/wheels
RUN pip install --quiet --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels

USER tablebot
WORKDIR /data
# Without DATABASE_URL the bot keeps its SQLite file in the /data volume.
ENV DATABASE_PATH=/data/tablebot.sqlite3 \
    METRICS_HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 9100 8765

# Python is PID 1 (exec form), so SIGTERM reaches the bot, which closes the gateway, gives
# back its shard lease and closes the database before it exits. Arguments after the image
# name go to the bot: `docker run … tablebot --playground --host 0.0.0.0`.
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
