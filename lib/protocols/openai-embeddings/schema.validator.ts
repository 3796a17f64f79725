// Generated from lib/protocols/openai-embeddings/schema.ts (embeddingsBodySchema) by scripts/generate-validators.cjs. Do not edit:
// change the schema, then run `node scripts/generate-validators.cjs`.
// @ts-nocheck (ajv writes untyped JavaScript; the export below carries the type)
import type { GeneratedValidator } from '../shared/validate';
import { ucs2length as func2 } from '../shared/validator-runtime';

export const validate: GeneratedValidator = validate21;
const schema6 = {"type":"object","required":["model","input"],"properties":{"model":{"type":"string","minLength":1},"encoding_format":{"enum":["float","base64",null]},"dimensions":{"type":["integer","null"],"minimum":1},"user":{"type":["string","null"]}}};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((data.model === undefined) && (missing0 = "model")) || ((data.input === undefined) && (missing0 = "input"))){
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
if(data.encoding_format !== undefined){
let data1 = data.encoding_format;
const _errs3 = errors;
if(!(((data1 === "float") || (data1 === "base64")) || (data1 === null))){
validate21.errors = [{instancePath:instancePath+"/encoding_format",schemaPath:"#/properties/encoding_format/enum",keyword:"enum",params:{allowedValues: schema6.properties.encoding_format.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs3 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.dimensions !== undefined){
let data2 = data.dimensions;
const _errs4 = errors;
if((!((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2)))) && (data2 !== null)){
validate21.errors = [{instancePath:instancePath+"/dimensions",schemaPath:"#/properties/dimensions/type",keyword:"type",params:{type: schema6.properties.dimensions.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs4){
if(typeof data2 == "number"){
if(data2 < 1 || isNaN(data2)){
validate21.errors = [{instancePath:instancePath+"/dimensions",schemaPath:"#/properties/dimensions/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.user !== undefined){
let data3 = data.user;
const _errs6 = errors;
if((typeof data3 !== "string") && (data3 !== null)){
validate21.errors = [{instancePath:instancePath+"/user",schemaPath:"#/properties/user/type",keyword:"type",params:{type: schema6.properties.user.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
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
