# The bot as a container: python:3.11-slim, the package installed, run as a non-root user.
# `docker compose up` (compose.yaml) runs PostgreSQL and two bot processes with it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --system --create-home --uid 10001 tablebot \
    && mkdir -p /data \
    && chown tablebot /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot.py shards.py monitoring.py ./
COPY games ./games
COPY texts ./texts
COPY render ./render
COPY data ./data
COPY cogs ./cogs
RUN pip install . && rm -rf build *.egg-info

USER tablebot
# Without DATABASE_URL the bot keeps its SQLite file in the /data volume.
ENV DATABASE_PATH=/data/tablebot.sqlite3 \
    METRICS_HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 9100

# Python is PID 1 (exec form), so SIGTERM reaches the bot, which closes the gateway, gives
# back its shard lease and closes the database before it exits.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
