// Generated from lib/protocols/openai-images/schema.ts (imageGenerationBodySchema) by scripts/generate-validators.cjs. Do not edit:
// change the schema, then run `node scripts/generate-validators.cjs`.
// @ts-nocheck (ajv writes untyped JavaScript; the export below carries the type)
import type { GeneratedValidator } from '../shared/validate';
import { ucs2length as func2 } from '../shared/validator-runtime';

export const validate: GeneratedValidator = validate21;
const schema6 = {"type":"object","required":["model","prompt"],"properties":{"model":{"type":"string","minLength":1},"prompt":{"type":"string","minLength":1,"maxLength":32000},"n":{"type":["integer","null"],"minimum":1,"maximum":10},"size":{"type":["string","null"]},"response_format":{"enum":["b64_json","url",null]},"quality":{"type":["string","null"]},"style":{"type":["string","null"]},"background":{"type":["string","null"]},"output_format":{"type":["string","null"]},"user":{"type":["string","null"]},"stream":{"type":["boolean","null"]}}};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((data.model === undefined) && (missing0 = "model")) || ((data.prompt === undefined) && (missing0 = "prompt"))){
validate21.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.model !== undefined){
let data0 = data.model;
const _errs1 = errors;
if(errors === _errs1){
if(typeof data0 === "string"){
if(func2(data0) < 1){
validate21.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.prompt !== undefined){
let data1 = data.prompt;
const _errs3 = errors;
if(errors === _errs3){
if(typeof data1 === "string"){
if(func2(data1) > 32000){
validate21.errors = [{instancePath:instancePath+"/prompt",schemaPath:"#/properties/prompt/maxLength",keyword:"maxLength",params:{limit: 32000},message:"must NOT have more than 32000 characters"}];
return false;
}
else {
if(func2(data1) < 1){
validate21.errors = [{instancePath:instancePath+"/prompt",schemaPath:"#/properties/prompt/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/prompt",schemaPath:"#/properties/prompt/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs3 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.n !== undefined){
let data2 = data.n;
const _errs5 = errors;
if((!((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2)))) && (data2 !== null)){
validate21.errors = [{instancePath:instancePath+"/n",schemaPath:"#/properties/n/type",keyword:"type",params:{type: schema6.properties.n.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs5){
if(typeof data2 == "number"){
if(data2 > 10 || isNaN(data2)){
validate21.errors = [{instancePath:instancePath+"/n",schemaPath:"#/properties/n/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10},message:"must be <= 10"}];
return false;
}
else {
if(data2 < 1 || isNaN(data2)){
validate21.errors = [{instancePath:instancePath+"/n",schemaPath:"#/properties/n/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid0 = _errs5 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.size !== undefined){
let data3 = data.size;
const _errs7 = errors;
if((typeof data3 !== "string") && (data3 !== null)){
validate21.errors = [{instancePath:instancePath+"/size",schemaPath:"#/properties/size/type",keyword:"type",params:{type: schema6.properties.size.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs7 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.response_format !== undefined){
let data4 = data.response_format;
const _errs9 = errors;
if(!(((data4 === "b64_json") || (data4 === "url")) || (data4 === null))){
validate21.errors = [{instancePath:instancePath+"/response_format",schemaPath:"#/properties/response_format/enum",keyword:"enum",params:{allowedValues: schema6.properties.response_format.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs9 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.quality !== undefined){
let data5 = data.quality;
const _errs10 = errors;
if((typeof data5 !== "string") && (data5 !== null)){
validate21.errors = [{instancePath:instancePath+"/quality",schemaPath:"#/properties/quality/type",keyword:"type",params:{type: schema6.properties.quality.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.style !== undefined){
let data6 = data.style;
const _errs12 = errors;
if((typeof data6 !== "string") && (data6 !== null)){
validate21.errors = [{instancePath:instancePath+"/style",schemaPath:"#/properties/style/type",keyword:"type",params:{type: schema6.properties.style.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.background !== undefined){
let data7 = data.background;
const _errs14 = errors;
if((typeof data7 !== "string") && (data7 !== null)){
validate21.errors = [{instancePath:instancePath+"/background",schemaPath:"#/properties/background/type",keyword:"type",params:{type: schema6.properties.background.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.output_format !== undefined){
let data8 = data.output_format;
const _errs16 = errors;
if((typeof data8 !== "string") && (data8 !== null)){
validate21.errors = [{instancePath:instancePath+"/output_format",schemaPath:"#/properties/output_format/type",keyword:"type",params:{type: schema6.properties.output_format.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.user !== undefined){
let data9 = data.user;
const _errs18 = errors;
if((typeof data9 !== "string") && (data9 !== null)){
validate21.errors = [{instancePath:instancePath+"/user",schemaPath:"#/properties/user/type",keyword:"type",params:{type: schema6.properties.user.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs18 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.stream !== undefined){
let data10 = data.stream;
const _errs20 = errors;
if((typeof data10 !== "boolean") && (data10 !== null)){
validate21.errors = [{instancePath:instancePath+"/stream",schemaPath:"#/properties/stream/type",keyword:"type",params:{type: schema6.properties.stream.type},message:"must be boolean,null"}];
return false;
}
var valid0 = _errs20 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate21.errors = vErrors;
return errors === 0;
}
