# baas-conform as a container, for CI systems that prefer images. No docker engine is needed to work on
# the project: test/package/dockerfile.test.ts checks that every COPY source exists and that the stages
# reference each other correctly.
#
#   docker build -t baas-conform .
#   docker run --rm baas-conform                      # `run` against the embedded reference
#   docker run --rm -v "$PWD:/work" baas-conform run --profile my-bank.json --report-dir out

# Stage 1: compile TypeScript to dist/ (needs the dev dependencies: typescript).
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY suites ./suites
RUN npm run build

# Stage 2: production dependencies only (no tsx, no TypeScript, no test tools).
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

# Stage 3: the runtime image: compiled code, the data files it reads (spec/, reports/), no sources.
FROM node:20-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY spec ./spec
COPY reports ./reports
# Reports are written to the working directory: a folder the unprivileged user owns.
RUN mkdir /work && chown node:node /work
USER node
WORKDIR /work
ENTRYPOINT ["node", "/app/bin/baas-conform.js"]
CMD ["run"]
